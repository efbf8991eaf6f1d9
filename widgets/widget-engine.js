/* The widgets' engine: the one client (engine-client.js) of the one widgets' worker per tab (worker.js), kept in
 * module scope so mkdocs-material's instant navigation keeps the worker from page to page. A worker that crashes
 * after it was ready is replaced at once (`engine.crash` says why); the requests it owed are rejected with
 * EngineStopped("crashed").
 *
 *   startEngine()                              idempotent; the state goes idle -> loading -> ready | failed
 *   startEngineAfterFirstPaint()               the same once the page has been drawn (a page's first set-up)
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
 * its first frame is still to come: a frame's animation callbacks run just before it is drawn, and a task queued
 * from one runs after. A tab opened in the background starts it when first shown. */
export function startEngineAfterFirstPaint() {
  requestAnimationFrame(() => setTimeout(startEngine, 0));
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
