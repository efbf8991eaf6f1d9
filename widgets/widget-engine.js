/* The client of the one Pyodide worker per tab (worker.js): start it, ask it for results, report its state, and
 * start a fresh one after a crash. It knows nothing of widgets or the DOM; it lives in module scope, so
 * mkdocs-material's instant navigation keeps the worker from page to page.
 *
 *   startEngine()                              idempotent; the state goes idle -> loading -> ready | failed
 *   compute({key, kind, values, onCheck})      -> Promise of the result JSON (rejected with the engine's reason);
 *                                                 onCheck(check JSON) later, for its gradient check
 *   onEngineChange(listener)                   listener(engine) after every change of state or loading stage
 * A worker that dies after it was ready (a fatal error of the Python runtime, the worker's own error event) is
 * replaced at once: `engine.crash` says why, and the requests it owed are rejected with `error.crashed = true`.
 */
const ASSETS = new URL(".", import.meta.url).href; // …/assets/layerwise/

/* Read by the tests and the benchmark (window.Layerwise.engine); changed only here. */
export const engine = {
  state: "idle", // idle | loading | ready | failed
  stage: "",
  reason: "",
  worker: null,
  startedAt: 0,
  readyAt: 0,
  starts: 0, // how many workers this tab created (tests check navigation does not add one)
  timeline: [], // [stage, ms since navigation start] of the latest start
  pythonMs: 0, // time inside Python for the latest result
  lastEdit: null, // {sent, workerStart, workerEnd, received}: ms on this page's clock, for the latest result
  crash: "", // why the latest worker died after it was ready
  crashes: 0,
};

const pending = new Map(); // request id -> {resolve, reject}
const checks = new Map(); // request id -> {key, onCheck} for its gradient check, which arrives after the result
const listeners = [];
let nextId = 1;
let readyTimer = null;

export function onEngineChange(listener) {
  listeners.push(listener);
}

function changed() {
  for (const listener of listeners) listener(engine);
  document.dispatchEvent(new CustomEvent("layerwise:engine", { detail: { state: engine.state } }));
}

export function startEngine() {
  if (engine.state !== "idle") return;
  engine.state = "loading";
  engine.stage = "starting the worker";
  engine.startedAt = performance.now();
  engine.timeline = [[engine.stage, engine.startedAt]];
  engine.starts += 1;
  changed();
  const config = window.Layerwise.engineConfig; // from engine-config.js, written by the site build
  if (!config) {
    failEngine(`its configuration ${ASSETS}engine-config.js did not load`);
    return;
  }
  const worker = new Worker(ASSETS + "worker.js");
  engine.worker = worker;
  worker.onmessage = (event) => onWorkerMessage(worker, event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    onWorkerDied(worker, event.message || "the worker stopped");
  };
  readyTimer = setTimeout(() => {
    failEngine(`it was not ready after ${config.readyTimeoutMs / 1000} s (last step: ${engine.stage}); ` +
               "a .wasm file served with the wrong MIME type makes Pyodide hang like this");
  }, config.readyTimeoutMs);
  worker.postMessage({
    type: "start",
    pyodideURL: new URL(config.pyodide, ASSETS).href,
    lockFileURL: new URL(config.lockFile, ASSETS).href,
  });
}

/* Drop the worker and reject whatever it still owed. */
function dropWorker(reason, crashed) {
  clearTimeout(readyTimer);
  if (engine.worker) engine.worker.terminate();
  engine.worker = null;
  for (const { reject } of pending.values()) reject(Object.assign(new Error(reason), { crashed }));
  pending.clear();
  checks.clear();
}

function failEngine(reason) {
  dropWorker(reason, false);
  engine.state = "failed";
  engine.reason = reason;
  changed();
}

function onWorkerMessage(worker, message) {
  if (worker !== engine.worker) return; // a message from a worker already replaced
  if (message.type === "progress") {
    engine.stage = message.stage;
    engine.timeline.push([message.stage, performance.now()]); // read by the benchmark
    changed();
  } else if (message.type === "ready") {
    clearTimeout(readyTimer);
    engine.state = "ready";
    engine.readyAt = performance.now();
    engine.timeline.push(["ready", engine.readyAt]);
    changed();
  } else if (message.type === "failed") {
    failEngine(message.reason);
  } else if (message.type === "check") {
    const entry = checks.get(message.id);
    checks.delete(message.id);
    if (entry) entry.onCheck(JSON.parse(message.json));
  } else if (message.type === "result" || message.type === "died") {
    const received = performance.now();
    const request = pending.get(message.id);
    pending.delete(message.id);
    engine.pythonMs = message.ms;
    if (request && message.span) {
      const [workerStart, workerEnd] = message.span.map((at) => at - performance.timeOrigin);
      engine.lastEdit = { sent: request.sent, workerStart, workerEnd, received };
    }
    if (request) {
      if (message.error !== undefined) request.reject(new Error(message.error));
      else request.resolve(JSON.parse(message.json));
    }
    if (message.type === "died") onWorkerDied(worker, message.error);
  }
}

/* A worker that dies after it was ready is replaced at once; one that never got ready means the engine cannot load. */
function onWorkerDied(worker, reason) {
  if (worker !== engine.worker) return;
  if (engine.state !== "ready") { failEngine(reason); return; }
  engine.crash = reason;
  engine.crashes += 1;
  dropWorker(`the live engine stopped (${reason})`, true);
  engine.state = "idle";
  startEngine();
}

/* Ask for one result; `key` (the widget's id) lets the worker drop that widget's superseded gradient check. */
export function compute({ key, kind, values, onCheck }) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    for (const [oldId, entry] of checks) if (entry.key === key) checks.delete(oldId);
    checks.set(id, { key, onCheck });
    const inputs = JSON.stringify(values);
    pending.set(id, { resolve, reject, sent: performance.now() });
    engine.worker.postMessage({ type: "compute", id, key, kind, inputs });
  });
}

/* Any other request of the worker's protocol ({type, ...}, e.g. "file" or "inside"): a promise of the answer's JSON. */
export function request(message) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, sent: performance.now() });
    engine.worker.postMessage({ ...message, id });
  });
}
