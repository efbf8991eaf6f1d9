/* Layerwise practice: the Web Worker that grades a learner's code with the exercises' module's grade_json
 * (the start message's modules.practice: the plugin's option, engine.exercises). It is not the
 * widgets' worker: learner code runs only here, so nothing it does (an endless loop, reassigning an engine function)
 * reaches what a widget shows, and the page can terminate this worker without touching the widgets. Protocol: see
 * widgets/engine-client.js; requests are {type: "grade", id, exercise, source}, and from "Build your GPT"
 * {type: "capstone", id, op, ...} (see capstoneRequest). */
"use strict";
importScripts("../engine-loader.js"); // loadEngine, postStage, postFailure: shared with the widgets' worker
let gradeJson = null;
let pyodide = null;
let modules = null; // the modules to import by role, from the start message (engine-config.js)

/* `prepare`: the ids of the page's exercises, whose expected outputs are computed now rather than in the first Run. */
async function start(message) {
  try {
    modules = message.modules;
    pyodide = await loadEngine(message);
    postStage("preparing the exercises");
    const exercises = pyodide.pyimport(modules.practice);
    exercises.prepare(pyodide.toPy(message.prepare || []));
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
    postFailure(id, error); // grade_json never raises for learner code: this is the grader's own error or a fatal one
  }
}

/* "Build your GPT" (modules.capstone: engine.capstone.session): op "check" {json: sources}, "start" {json:
 * {sources, steps, lr, seed}}, "run" {maxSteps, budgetMs} (the next chunk of steps), "checkpoint" (the model's .npz bytes),
 * "generate" {json: {prompt, tokens, temperature, top_k, top_p, seed}}, "more" {budgetMs} (the next characters). */
let capstone = null;
function capstoneRequest({ id, op, json, maxSteps, budgetMs }) {
  try {
    capstone = capstone || pyodide.pyimport(modules.capstone);
    if (op === "checkpoint") {
      const bytes = capstone.checkpoint_bytes();
      const data = bytes.toJs();
      bytes.destroy();
      self.postMessage({ type: "result", id, data }, [data.buffer]);
      return;
    }
    const calls = {
      check: () => capstone.check_json(json), start: () => capstone.start_json(json),
      run: () => capstone.run_json(maxSteps, budgetMs), generate: () => capstone.generate_start_json(json),
      more: () => capstone.generate_next_json(budgetMs),
    };
    const answer = calls[op]();
    self.postMessage({ type: "result", id, json: answer });
  } catch (error) {
    postFailure(id, error);
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "start") start(message);
  else if (message.type === "grade") grade(message);
  else if (message.type === "capstone") capstoneRequest(message);
};
