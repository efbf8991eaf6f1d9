/* The client of a Pyodide Web Worker, for the widgets' worker (worker.js, via widget-engine.js) and practice's
 * (practice/worker.js, via practice/engine.js): start it, send requests that carry an id and match each answer to
 * its request by that id, report the worker's state to listeners. It knows nothing of widgets or the DOM; each user
 * keeps its one client in module scope, so mkdocs-material's instant navigation keeps the worker from page to page.
 *
 * The worker's side of the protocol: it receives {type: "start", ...startMessage} and answers
 * {type: "progress", stage}* then {type: "ready"} or {type: "failed", reason}; it answers every later message
 * {id, ...} with {type: "result", id, ...} (an `error` field rejects the request; `ms`, time in Python, and `span`,
 * its start and end on the clock the page shares, are kept for the benchmark) and may follow a result with
 * {type: "check", id, json} (the widgets' gradient check); when the interpreter is no longer usable it answers
 * {type: "died", id, error}. The start messages (progress, ready, failed) count only while the worker starts.
 * With privateChannel (practice, whose worker runs the learner's code, which can call postMessage itself) the start
 * message carries `port`, one end of a MessageChannel, and answers count only when they come through it: the
 * worker keeps that port where no code it runs can reach it, so whatever arrives the ordinary way once the worker is
 * ready is ignored.
 *
 * A request that outlives its time limit terminates the worker (the only way to stop Python that never returns);
 * with restartAfterCrash that is a crash like any other.
 * A worker that dies once ready (`died`, or its error event) is a crash: `crash` says why, its requests are rejected
 * with EngineStopped("crashed"), and a fresh worker starts at once (restartAfterCrash) or with the next request.
 * A start that fails (`failed`, the ready time limit, no start message) is final: EngineStopped("failed"). */

/* Why a request did not get an answer. `cause`: "timeout" | "crashed" | "failed" (the engine could not start). */
export class EngineStopped extends Error {
  constructor(cause, message) {
    super(message);
    this.name = "EngineStopped";
    this.cause = cause;
  }
}

export class EngineClient {
  /* url: the worker script; startMessage: fields of the start message, or a function returning them (called as a
   * worker starts; an Error it throws fails the start with its message); readyTimeoutMs: how long a start may take;
   * restartAfterCrash: start a fresh worker as soon as one crashes; onChange(client): the first listener;
   * privateChannel: answers only through the port given in the start message. */
  constructor({ url, startMessage = {}, readyTimeoutMs = 60_000, restartAfterCrash = false, onChange = null,
                privateChannel = false }) {
    this.url = url;
    this.privateChannel = privateChannel;
    this.port = null; // this side of the private channel
    this.startMessage = startMessage;
    this.readyTimeoutMs = readyTimeoutMs;
    this.restartAfterCrash = restartAfterCrash;
    this.listeners = onChange ? [onChange] : [];
    // Read by the tests and the benchmarks (window.Layerwise.engine, Layerwise.practice.engine); changed only here.
    this.state = "idle"; // idle | loading | ready | failed
    this.stage = "";
    this.reason = ""; // why the engine failed to start
    this.worker = null;
    this.starts = 0; // workers created so far (tests check instant navigation does not add one)
    this.startedAt = 0;
    this.readyAt = 0;
    this.timeline = []; // [stage, ms since navigation start] of the latest start
    this.crash = ""; // why the latest worker died after it was ready
    this.crashes = 0;
    this.pythonMs = 0; // time inside Python for the latest answer that says
    this.lastEdit = null; // {sent, workerStart, workerEnd, received}: this page's ms, for the latest answer with a span
    this.ready = null; // the promise of the current start
    this.settleStart = null;
    this.pending = new Map(); // id -> {resolve, reject, timer, sent}
    this.checks = new Map(); // id -> {key, onCheck} for a result's follow-up check
    this.nextId = 1;
  }

  listen(listener) {
    this.listeners.push(listener);
  }

  /* Start a worker unless one is starting or running; resolves when it is ready. */
  start() {
    if (this.state === "failed") return Promise.reject(new EngineStopped("failed", this.reason));
    if (this.ready) return this.ready;
    this.starts += 1;
    this.startedAt = performance.now();
    this.timeline = [["starting the worker", this.startedAt]];
    const ready = new Promise((resolve, reject) => { this.settleStart = { resolve, reject, timer: null }; });
    ready.catch(() => {}); // a failed start is reported through request() and the listeners
    this.ready = ready;
    this.setState("loading", "starting the worker");
    let extra;
    try {
      extra = typeof this.startMessage === "function" ? this.startMessage() : this.startMessage;
    } catch (error) {
      this.fail(null, error.message);
      return ready;
    }
    const worker = new Worker(this.url);
    this.worker = worker;
    const notReady = () => this.fail(worker, `it was not ready after ${this.readyTimeoutMs / 1000} s (last step: ` +
      `${this.stage}); a .wasm file served with the wrong MIME type makes Pyodide hang like this`);
    this.settleStart.timer = setTimeout(notReady, this.readyTimeoutMs);
    worker.onmessage = (event) => this.receive(worker, event.data, !this.privateChannel);
    worker.onerror = (event) => {
      event.preventDefault();
      this.died(worker, event.message || "the worker stopped with an error");
    };
    if (!this.privateChannel) {
      worker.postMessage({ ...extra, type: "start" });
      return ready;
    }
    const channel = new MessageChannel();
    this.port = channel.port1;
    channel.port1.onmessage = (event) => this.receive(worker, event.data, true);
    worker.postMessage({ ...extra, type: "start", port: channel.port2 }, [channel.port2]);
    return ready;
  }

  /* Send `message` (an object; `id` is added) and resolve with the worker's answer. With `timeoutMs`, a ready
   * worker that has not answered by then is terminated and the request rejected with EngineStopped("timeout").
   * onCheck(check message): the follow-up of this result; a later request with the same `message.key` drops it. */
  async request(message, { timeoutMs = null, onCheck = null } = {}) {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new EngineStopped("crashed", "the engine stopped before the request was sent");
    const id = this.nextId++;
    if (message.key !== undefined) {
      for (const [oldId, entry] of this.checks) if (entry.key === message.key) this.checks.delete(oldId);
    }
    if (onCheck) this.checks.set(id, { key: message.key, onCheck });
    return new Promise((resolve, reject) => {
      const timer = timeoutMs === null ? null : setTimeout(() => {
        // This request gets the timeout; any other one waiting on the same worker is told why it was stopped.
        this.pending.delete(id);
        reject(new EngineStopped("timeout", `stopped after ${timeoutMs / 1000} s without an answer`));
        // A client that restarts after a crash treats a worker that stopped answering as crashed; another one
        // starts afresh with its next request.
        if (this.restartAfterCrash) this.died(worker, `no answer within ${timeoutMs / 1000} s`);
        else this.stop(worker, new EngineStopped("crashed", "another request ran past its time limit"));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, sent: performance.now() });
      worker.postMessage({ ...message, id });
    });
  }

  /* Terminate the current worker (if any); its requests are rejected with `error`; the next request restarts. */
  stop(worker = this.worker, error = new EngineStopped("crashed", "the engine was stopped")) {
    if (!worker || worker !== this.worker) return;
    this.drop(error);
    this.setState("idle", "");
  }

  /* Terminate the worker and reject what it still owed, telling no listener: the caller sets the next state. */
  drop(error) {
    if (this.worker) this.worker.terminate();
    if (this.port) this.port.close();
    this.worker = null;
    this.port = null;
    this.ready = null;
    if (this.settleStart) clearTimeout(this.settleStart.timer);
    this.settleStart = null;
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.pending.clear();
    this.checks.clear();
  }

  /* A message from `worker`; `trusted`: it came the way answers may come (see privateChannel). */
  receive(worker, message, trusted) {
    if (worker !== this.worker || !wellFormed(message)) return; // from a worker already replaced, or not ours
    const starting = ["progress", "ready", "failed"].includes(message.type);
    if (starting ? this.state !== "loading" : !trusted) return;
    if (message.type === "progress") {
      this.timeline.push([message.stage, performance.now()]);
      this.setState("loading", message.stage);
    } else if (message.type === "ready") {
      clearTimeout(this.settleStart.timer);
      this.settleStart.resolve();
      this.readyAt = performance.now();
      this.timeline.push(["ready", this.readyAt]);
      this.setState("ready", "");
    } else if (message.type === "failed") {
      this.fail(worker, message.reason);
    } else if (message.type === "check") {
      const entry = this.checks.get(message.id);
      this.checks.delete(message.id);
      if (entry) entry.onCheck(message);
    } else if (message.type === "result") {
      this.answer(message);
    } else if (message.type === "died") {
      this.died(worker, message.error); // its request is rejected as crashed, like every other one it owed
    }
  }

  answer(message) {
    const received = performance.now();
    const request = this.pending.get(message.id);
    if (message.ms !== undefined) this.pythonMs = message.ms;
    if (!request) return;
    this.pending.delete(message.id);
    clearTimeout(request.timer);
    if (message.span) {
      const [workerStart, workerEnd] = message.span.map((at) => at - performance.timeOrigin);
      this.lastEdit = { sent: request.sent, workerStart, workerEnd, received };
    }
    if (message.error !== undefined) request.reject(new Error(message.error));
    else request.resolve(message);
  }

  /* The worker stopped on its own: while loading, the engine cannot load here; once ready, a crash. */
  died(worker, reason) {
    if (worker !== this.worker) return;
    if (this.state === "loading") {
      this.fail(worker, reason);
      return;
    }
    this.crash = reason;
    this.crashes += 1;
    this.drop(new EngineStopped("crashed", `the engine stopped (${reason})`));
    if (this.restartAfterCrash) {
      this.state = "idle"; // the listeners hear of the fresh start, not of this moment without a worker
      this.start();
    } else {
      this.setState("idle", "");
    }
  }

  fail(worker, reason) {
    if (worker !== this.worker) return;
    const start = this.settleStart;
    this.drop(new EngineStopped("failed", reason));
    this.reason = reason;
    this.setState("failed", "");
    if (start) start.reject(new EngineStopped("failed", reason));
  }

  setState(state, stage) {
    this.state = state;
    this.stage = stage;
    for (const listener of this.listeners) listener(this);
  }
}

/* The protocol's fields have their types (a worker's message is read, never trusted to be what it says). */
function wellFormed(message) {
  if (!message || typeof message !== "object") return false;
  const text = (name) => message[name] === undefined || typeof message[name] === "string";
  switch (message.type) {
    case "progress": return typeof message.stage === "string";
    case "ready": return true;
    case "failed": return typeof message.reason === "string";
    case "result": case "check": case "died":
      return Number.isInteger(message.id) && text("error")
        && (message.ms === undefined || Number.isFinite(message.ms))
        && (message.span === undefined || (Array.isArray(message.span) && message.span.length === 2
                                           && message.span.every(Number.isFinite)));
    default: return false;
  }
}

const ASSETS = new URL(".", import.meta.url); // …/assets/layerwise/, which engine-config.js's URLs are relative to

/* The client of one of this site's workers (`worker`: its script, relative to assets/layerwise/): its start message
 * says where Pyodide and the engine's lock file are, the package to load and the modules to import (the plugin's
 * options, by role: kinds, practice, inside, capstone), read from engine-config.js (written by the site build), plus
 * the fields `extra()` returns; without that configuration the start fails saying so. */
export function siteEngineClient(worker, { extra = () => ({}), ...options } = {}) {
  const config = () => window.Layerwise && window.Layerwise.engineConfig;
  return new EngineClient({
    url: new URL(worker, ASSETS).href,
    startMessage: () => {
      const found = config();
      if (!found) throw new Error(`its configuration ${ASSETS.href}engine-config.js did not load`);
      const snapshotURL = found.snapshot && snapshotWanted() ? new URL(found.snapshot, ASSETS).href : null;
      return { pyodideURL: new URL(found.pyodide, ASSETS).href, lockFileURL: new URL(found.lockFile, ASSETS).href,
               distribution: found.distribution, modules: found.modules, snapshotURL, ...extra() };
    },
    readyTimeoutMs: (config() || {}).readyTimeoutMs || 60_000,
    ...options,
  });
}

/* Whether the workers restore CPython from its memory snapshot: ~1 s less of a core at each start, for ~5.7 MB more
 * to download once and ~30 MB more of the tab's memory per worker (scripts/bench/HISTORY.md). Not where the browser
 * says data is dear (Save-Data, a 2G or 3G connection) or memory is short. */
export function snapshotWanted() {
  const connection = navigator.connection;
  if (connection && (connection.saveData || /2g|3g/.test(connection.effectiveType || ""))) return false;
  return memoryToSpare();
}

/* Unless the browser says it has under 4 GB (Chromium reports memory in steps: 0.25 ... 8; Firefox and Safari say
 * nothing, and are taken to have enough): where a worker may cost the tab ~30-170 MB more. */
export function memoryToSpare() {
  return !(navigator.deviceMemory < 4);
}
