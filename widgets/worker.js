/* Layerwise widgets, part 3: the one Web Worker per tab that runs Pyodide, NumPy and the engine.
 * It receives {kind, inputs as JSON of numbers} and answers with the JSON that the kinds' module's run_json made
 * (the start message's modules.kinds: the plugin's option, engine.examples).
 * The page never blocks on Python, and never sends code: only the kind's name and arrays of numbers. */
"use strict";
importScripts("engine-loader.js"); // loadEngine, postStage, postFailure: shared with the practice worker
let runJson = null;
let finishCheckJson = null;
let pyodide = null;
let modules = null; // the modules to import by role, from the start message (engine-config.js)
let insideJson = null; // modules.inside's run_json (engine.inside.analysis), imported on the first request of that page
const waitingChecks = new Map(); // widget key -> id of its latest result whose gradient check has not run

async function start(message) {
  try {
    modules = message.modules;
    pyodide = await loadEngine(message);
    postStage("importing the engine");
    const examples = pyodide.pyimport(modules.kinds);
    // Move everything imported so far out of the cyclic collector's reach: its full passes would otherwise rescan
    // NumPy and the engine during an edit, the slowest edits' main cost.
    pyodide.runPython("import gc; gc.freeze()");
    runJson = examples.run_json;
    finishCheckJson = examples.finish_check_json;
    self.postMessage({ type: "ready" });
  } catch (error) {
    self.postMessage({ type: "failed", reason: String((error && error.message) || error) });
  }
}

/* Gradient checks run after the results are posted, one per task, so a compute request that arrives meanwhile
 * goes first; a widget's newer result replaces its older waiting check. A slow check never delays an output. */
function runCheck() {
  const next = waitingChecks.entries().next();
  if (next.done) return;
  const [key, id] = next.value;
  waitingChecks.delete(key);
  let json = "null";
  try {
    json = finishCheckJson(key);
  } catch (error) { /* reported as no check: the outputs themselves were fine */ }
  self.postMessage({ type: "check", id, json });
  if (waitingChecks.size) setTimeout(runCheck, 0);
}

function compute({ id, key, kind, inputs }) {
  try {
    const started = performance.now();
    const json = runJson(kind, inputs, key);
    const ended = performance.now();
    // The span also on the clock page and worker share (timeOrigin + now), so the page can place the worker's part
    // of an edit among its own steps (Layerwise.engine.lastEdit, read by the benchmark).
    self.postMessage({ type: "result", id, json, ms: ended - started,
                       span: [performance.timeOrigin + started, performance.timeOrigin + ended] });
    waitingChecks.delete(key);
    waitingChecks.set(key, id);
    setTimeout(runCheck, 0);
  } catch (error) {
    postFailure(id, error);
  }
}

/* A file the Python side reads (the trained checkpoint of "Inside a trained model"), fetched from the site into
 * Pyodide's file system; a fresh worker after a crash has none, so the page asks again. */
async function writeFile({ id, url, path }) {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    pyodide.FS.writeFile(path, new Uint8Array(await response.arrayBuffer()));
    self.postMessage({ type: "result", id, json: "true" });
  } catch (error) {
    self.postMessage({ type: "result", id, error: `the trained model could not be loaded (${error.message})` });
  }
}

function inside({ id, request }) {
  try {
    insideJson = insideJson || pyodide.pyimport(modules.inside).run_json;
    const started = performance.now();
    const json = insideJson(request);
    self.postMessage({ type: "result", id, json, ms: performance.now() - started });
  } catch (error) {
    postFailure(id, error);
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "start") start(message);
  else if (message.type === "compute") compute(message);
  else if (message.type === "file") writeFile(message);
  else if (message.type === "inside") inside(message);
};
