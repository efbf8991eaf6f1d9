/* The one practice worker of this tab, shared by every exercise and kept across instant navigation (module scope).
 * It starts when an exercise nears the screen (page.js), a reader rests on a link to one (intent.js), an editor gets
 * the focus or Run is clicked, or, where the device can spare it, once the widgets' engine is ready (page.js); never
 * with the page's load itself. A run that outlives RUN_LIMIT_MS terminates it, and the next run starts a fresh one. */
import { EngineStopped, siteEngineClient } from "../engine-client.js";
import { Unreadable, gradeResult } from "./answers.js";

export const RUN_LIMIT_MS = 5_000; // far above a correct solution's grading (well under a second), short enough to wait

export const practiceEngine = siteEngineClient("practice/worker.js", {
  // the page's exercises, whose expected outputs the worker computes as it starts rather than in the first Run
  extra: () => ({ prepare: [...document.querySelectorAll(".lw-exercise")].map((el) => el.dataset.exercise) }),
  // told to the widgets' engine, which a reader arriving at an exercise lets start first (widget-engine.js)
  onChange: ({ state }) => document.dispatchEvent(new CustomEvent("layerwise:practice", { detail: { state } })),
  privateChannel: true, // the learner's code runs in this worker and can post messages of its own
});

export function onEngineChange(listener) {
  practiceEngine.listen(listener);
}

/* Start the worker ahead of the first run (an exercise neared the screen, or an editor got the focus). */
export function warmUp() {
  practiceEngine.start().catch(() => {}); // a failure is shown when the learner runs
}

/* The worker's answer to `message`, read by `read(answer)` (answers.js). An answer that does not read means the
 * learner's code changed what this Python writes: it is shut down, so the next request starts a fresh one, and the
 * request rejects with EngineStopped("crashed") saying why. */
export async function ask(message, timeoutMs, read) {
  const answer = await practiceEngine.request(message, { timeoutMs });
  try {
    return read(answer);
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    practiceEngine.stop();
    throw new EngineStopped("crashed", error.message);
  }
}

/* The grade result (engine.exercises.grade's dict) of `source` for exercise `id`; rejects with EngineStopped
 * ("timeout", "crashed" or "failed") when there is no verdict. */
export function grade(id, source) {
  return ask({ type: "grade", exercise: id, source }, RUN_LIMIT_MS, (answer) => gradeResult(answer.json));
}
