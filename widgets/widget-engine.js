/* The widgets' engine: the one client (engine-client.js) of the one widgets' worker per tab (worker.js), kept in
 * module scope so mkdocs-material's instant navigation keeps the worker from page to page. A worker that crashes
 * after it was ready is replaced at once (`engine.crash` says why); the requests it owed are rejected with
 * EngineStopped("crashed").
 *
 *   startEngine()                              idempotent; the state goes idle -> loading -> ready | failed
 *   startEngineAfterFirstPaint()               the same once the page has been drawn (a page's first set-up)
 *   startEngineAfterPractice()                 the same once the practice worker is ready (a reader arriving at
 *                                                 an exercise)
 *   compute({key, kind, values, onCheck})      -> Promise of the result JSON (rejected with the engine's reason);
 *                                                 onCheck(check JSON) later, for its gradient check; a worker
 *                                                 that does not answer within engine.computeTimeoutMs is replaced
 *   request(message)                           any other request of worker.js ("file", "inside"): its answer's JSON
 *   onEngineChange(listener)                   listener(engine) after every change of state or loading stage
 * The page is also told by a "layerwise:engine" event on the document (practice waits for the widgets' start). */
import { siteEngineClient } from "./engine-client.js";

/* Read by the tests and the benchmarks as window.Layerwise.engine (state, stage, reason, starts, worker, readyAt,
 * timeline, crash, crashes, pythonMs, lastEdit). */
export const engine = siteEngineClient("worker.js", {
  restartAfterCrash: true,
  onChange: ({ state }) => document.dispatchEvent(new CustomEvent("layerwise:engine", { detail: { state } })),
});
// An example's answer takes milliseconds (bench_kinds.py, CPython: at most ~5 ms an edit; ~170 ms for Generation's
// first, which trains its model; Pyodide on a phone is several times slower): a worker silent this long is stuck,
// and is replaced like a crashed one. A property, so a test can shorten it.
engine.computeTimeoutMs = 20_000;

export function onEngineChange(listener) {
  engine.listen(listener);
}

export function startEngine() {
  engine.start().catch(() => {}); // a failed start is told to the listeners (the page's notice, each widget)
}

/* The engine's downloads (~16 MB with NumPy) and its wasm compile start once the page has been drawn, not while
 * its first frame is still to come. The page's scripts start once its first paint is reported
 * (layerwise_build/pagescripts.js), so on a page's first set-up it starts at once; elsewhere (a page built without
 * the plugin) a frame's animation callbacks run just before it is drawn, and a task queued from one runs after. A
 * tab opened in the background starts it when first shown. */
export function startEngineAfterFirstPaint() {
  if (performance.getEntriesByType("paint").length) startEngine();
  else requestAnimationFrame(() => setTimeout(startEngine, 0));
}

/* A reader who arrived at an exercise (the Practice page's list, the contents' "Practice") came to write code: the
 * practice worker, which starts as the exercise shows (practice/page.js), has the cores first, and this engine starts
 * once that one is ready or failed (side by side on 2 cores each took ~0.4 s longer: scripts/bench/HISTORY.md), or at
 * once when the reader goes to a widget (a cell's focus starts it). Should the practice worker not start at all (its
 * modules did not load), this one starts PRACTICE_GRACE_MS after the page's set-up. */
const PRACTICE_GRACE_MS = 3000;
export function startEngineAfterPractice() {
  const practice = window.Layerwise && window.Layerwise.practice && window.Layerwise.practice.engine;
  const settled = (state) => state === "ready" || state === "failed";
  if (practice && settled(practice.state)) return startEngineAfterFirstPaint();
  const start = () => {
    clearTimeout(grace);
    document.removeEventListener("layerwise:practice", heard);
    startEngineAfterFirstPaint();
  };
  const heard = (event) => {
    if (settled(event.detail.state)) start();
    else clearTimeout(grace); // it is starting: wait for it however long that takes
  };
  const grace = practice && practice.state === "loading" ? null : setTimeout(start, PRACTICE_GRACE_MS);
  document.addEventListener("layerwise:practice", heard);
}

/* `key` (the widget's id) lets the worker drop that widget's superseded gradient check. */
export async function compute({ key, kind, values, onCheck }) {
  const answer = await engine.request({ type: "compute", key, kind, inputs: JSON.stringify(values) },
                                      { timeoutMs: engine.computeTimeoutMs,
                                        onCheck: (check) => onCheck(JSON.parse(check.json)) });
  return JSON.parse(answer.json);
}

export async function request(message) {
  return JSON.parse((await engine.request(message)).json);
}
