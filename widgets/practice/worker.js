/* Layerwise practice: the Web Worker that grades a learner's code with engine.exercises.grade_json. It is not the
 * widgets' worker: learner code runs only here, so nothing it does (an endless loop, reassigning an engine function)
 * reaches what a widget shows, and the page can terminate this worker without touching the widgets. Protocol: see
 * widgets/engine-client.js; requests are {type: "grade", id, exercise, source}. */
"use strict";
importScripts("../engine-loader.js"); // loadEngine, shared with the widgets' worker
let gradeJson = null;

function step(stage) {
  self.postMessage({ type: "progress", stage });
}

/* `prepare`: the ids of the page's exercises, whose expected outputs are computed now rather than in the first Run. */
async function start({ pyodideURL, lockFileURL, prepare }) {
  try {
    const pyodide = await loadEngine(pyodideURL, lockFileURL, step);
    step("preparing the exercises");
    const exercises = pyodide.pyimport("engine.exercises");
    exercises.prepare(pyodide.toPy(prepare || []));
    gradeJson = exercises.grade_json;
    self.postMessage({ type: "ready" });
  } catch (error) {
    self.postMessage({ type: "failed", reason: String((error && error.message) || error) });
  }
}

function grade({ id, exercise, source }) {
  try {
    const started = performance.now();
    const json = gradeJson(exercise, source);
    self.postMessage({ type: "result", id, json, ms: performance.now() - started });
  } catch (error) {
    const message = String((error && error.message) || error).trim().split("\n").pop();
    // grade_json never raises for learner code, so a Python exception here is the grader's own; anything else (a
    // fatal wasm error, out of memory) leaves the interpreter unusable.
    self.postMessage({ type: error && error.type ? "result" : "died", id, error: message });
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "start") start(message);
  else if (message.type === "grade") grade(message);
};
