/* Layerwise practice: the Web Worker that grades a learner's code with the exercises' module's grade_json
 * (the start message's modules.practice: the plugin's option, engine.exercises). It is not the
 * widgets' worker: learner code runs only here, so nothing it does (an endless loop, reassigning an engine function)
 * reaches what a widget shows, and the page can terminate this worker without touching the widgets. Protocol: see
 * widgets/engine-client.js; requests are {type: "grade", id, exercise, source}, and from "Build your GPT"
 * {type: "capstone", id, op, ...} (see capstoneRequest).
 *
 * The learner's code can reach this worker's global scope (Pyodide's `js` module is globalThis) and so call
 * postMessage itself: every answer goes through the private port of the start message instead, kept inside the
 * closure below with its postMessage bound before any learner code runs, so neither the port nor a patched
 * MessagePort.prototype is within that code's reach. The page ignores anything else once the worker is ready. */
"use strict";
importScripts("../engine-loader.js"); // loadEngine, postStage, postFailure: shared with the widgets' worker
(() => {
  let reply = null; // the private port's postMessage, bound at the start
  let gradeJson = null;
  let pyodide = null;
  let modules = null; // the modules to import by role, from the start message (engine-config.js)

  /* `prepare`: the ids of the page's exercises, whose expected outputs are computed now rather than in the first Run. */
  async function start(message) {
    reply = MessagePort.prototype.postMessage.bind(message.port);
    try {
      modules = message.modules;
      pyodide = await loadEngine(message);
      postStage("preparing the exercises");
      const exercises = pyodide.pyimport(modules.practice);
      exercises.prepare(pyodide.toPy(message.prepare || []));
      gradeJson = exercises.grade_json;
      reply({ type: "ready" });
    } catch (error) {
      reply({ type: "failed", reason: String((error && error.message) || error) });
    }
  }

  function grade({ id, exercise, source }) {
    try {
      const started = performance.now();
      const json = gradeJson(exercise, source);
      reply({ type: "result", id, json, ms: performance.now() - started });
    } catch (error) {
      postFailure(id, error, reply); // grade_json never raises for learner code: the grader's own error or a fatal one
    }
  }

  /* "Build your GPT" (modules.capstone: engine.capstone.session): op "check" {json: {sources, preset}}, "start"
   * {json: {sources, steps, lr, seed, preset}}, "run" {maxSteps, budgetMs} (the next chunk of steps), "checkpoint"
   * (the model's .npz bytes), "generate" {json: {prompt, tokens, temperature, top_k, top_p, seed}}, "more"
   * {budgetMs} (the next characters). */
  let capstone = null;
  function capstoneRequest({ id, op, json, maxSteps, budgetMs }) {
    try {
      capstone = capstone || pyodide.pyimport(modules.capstone);
      if (op === "checkpoint") {
        const bytes = capstone.checkpoint_bytes();
        const data = bytes.toJs();
        bytes.destroy();
        reply({ type: "result", id, data }, [data.buffer]);
        return;
      }
      const calls = {
        check: () => capstone.check_json(json), start: () => capstone.start_json(json),
        run: () => capstone.run_json(maxSteps, budgetMs), generate: () => capstone.generate_start_json(json),
        more: () => capstone.generate_next_json(budgetMs),
      };
      const answer = calls[op]();
      reply({ type: "result", id, json: answer });
    } catch (error) {
      postFailure(id, error, reply);
    }
  }

  self.onmessage = (event) => {
    const message = event.data;
    if (message.type === "start") start(message);
    else if (message.type === "grade") grade(message);
    else if (message.type === "capstone") capstoneRequest(message);
  };
})();
