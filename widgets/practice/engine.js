/* The one practice worker of this tab, shared by every exercise and kept across instant navigation (module scope).
 * It starts when an exercise nears the screen (page.js), an editor gets the focus or Run is clicked, never on page
 * load; a run that outlives RUN_LIMIT_MS terminates it, and the next run starts a fresh one. */
import { EngineClient, EngineStopped } from "../engine-client.js";

export const RUN_LIMIT_MS = 5_000; // far above a correct solution's grading (well under a second), short enough to wait
const HERE = new URL(".", import.meta.url); // …/assets/layerwise/practice/
const ASSETS = new URL("..", HERE); // engine-config.js's URLs are relative to this folder
const listeners = new Set();

function engineConfig() {
  return window.Layerwise && window.Layerwise.engineConfig; // from engine-config.js, written by the site build
}

export const practiceEngine = new EngineClient({
  url: new URL("worker.js", HERE).href,
  startMessage: () => ({ pyodideURL: new URL(engineConfig().pyodide, ASSETS).href,
                         lockFileURL: new URL(engineConfig().lockFile, ASSETS).href,
                         prepare: [...document.querySelectorAll(".lw-exercise")].map((el) => el.dataset.exercise) }),
  readyTimeoutMs: (engineConfig() || {}).readyTimeoutMs || 60_000,
  onChange: (client) => { for (const listener of listeners) listener(client); },
});

export function onEngineChange(listener) {
  listeners.add(listener);
}

function missingConfig() {
  return new EngineStopped("failed", `its configuration ${ASSETS.href}engine-config.js did not load`);
}

/* Start the worker ahead of the first run (an exercise neared the screen, or an editor got the focus). */
export function warmUp() {
  if (engineConfig()) practiceEngine.start().catch(() => {}); // a failure is shown when the learner runs
}

/* The grade result (engine.exercises.grade's dict) of `source` for exercise `id`; rejects with EngineStopped
 * ("timeout", "crashed" or "failed") when there is no verdict. */
export async function grade(id, source) {
  if (!engineConfig()) throw missingConfig();
  const answer = await practiceEngine.request({ type: "grade", exercise: id, source }, { timeoutMs: RUN_LIMIT_MS });
  return JSON.parse(answer.json);
}
