/* The one practice worker of this tab, shared by every exercise and kept across instant navigation (module scope).
 * It starts when an exercise nears the screen (page.js), a reader rests on a link to one (intent.js), an editor gets
 * the focus or Run is clicked, or, where the device can spare it, once the widgets' engine is ready (page.js); never
 * with the page's load itself. A run that outlives RUN_LIMIT_MS terminates it, and the next run starts a fresh one. */
import { siteEngineClient } from "../engine-client.js";

export const RUN_LIMIT_MS = 5_000; // far above a correct solution's grading (well under a second), short enough to wait

export const practiceEngine = siteEngineClient("practice/worker.js", {
  // the page's exercises, whose expected outputs the worker computes as it starts rather than in the first Run
  extra: () => ({ prepare: [...document.querySelectorAll(".lw-exercise")].map((el) => el.dataset.exercise) }),
  // told to the widgets' engine, which a reader arriving at an exercise lets start first (widget-engine.js)
  onChange: ({ state }) => document.dispatchEvent(new CustomEvent("layerwise:practice", { detail: { state } })),
});

export function onEngineChange(listener) {
  practiceEngine.listen(listener);
}

/* Start the worker ahead of the first run (an exercise neared the screen, or an editor got the focus). */
export function warmUp() {
  practiceEngine.start().catch(() => {}); // a failure is shown when the learner runs
}

/* The grade result (engine.exercises.grade's dict) of `source` for exercise `id`; rejects with EngineStopped
 * ("timeout", "crashed" or "failed") when there is no verdict. */
export async function grade(id, source) {
  const answer = await practiceEngine.request({ type: "grade", exercise: id, source }, { timeoutMs: RUN_LIMIT_MS });
  return JSON.parse(answer.json);
}
