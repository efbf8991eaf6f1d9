/* A client of one Pyodide Web Worker: start it from a URL, send requests that carry an id, and match each answer to
 * its request by that id. A request that outlives its time limit terminates the worker (the only way to stop
 * Python that never returns) and is rejected with the reason; the next request starts a fresh worker.
 *
 * The worker's side of the protocol: it receives {type: "start", ...startMessage} and answers
 * {type: "progress", stage}* then {type: "ready"} or {type: "failed", reason}; it answers every later message
 * {id, ...} with {type: "result", id, ...} (an `error` field rejects the request) or, when the interpreter is no
 * longer usable, {type: "died", id, error}. */

/* Why a request did not get an answer. `cause`: "timeout" | "crashed" | "failed" (the engine could not start). */
export class EngineStopped extends Error {
  constructor(cause, message) {
    super(message);
    this.name = "EngineStopped";
    this.cause = cause;
  }
}

export class EngineClient {
  /* url: the worker script; startMessage: fields of the start message, or a function returning them (read when a
   * worker starts); readyTimeoutMs: how long a start may take; onChange(client): state changes, for the page. */
  constructor({ url, startMessage = {}, readyTimeoutMs = 60_000, onChange = () => {} }) {
    this.url = url;
    this.startMessage = startMessage;
    this.readyTimeoutMs = readyTimeoutMs;
    this.onChange = onChange;
    this.state = "idle"; // idle | loading | ready | failed (failed is final: the engine cannot load here)
    this.stage = "";
    this.reason = "";
    this.starts = 0; // workers created so far (tests and the benchmark read it)
    this.worker = null;
    this.ready = null; // the promise of the current start
    this.pending = new Map(); // id -> {resolve, reject, timer}
    this.nextId = 1;
  }

  /* Start a worker unless one is starting or running; resolves when it is ready. */
  start() {
    if (this.state === "failed") return Promise.reject(new EngineStopped("failed", this.reason));
    if (this.ready) return this.ready;
    this.starts += 1;
    this.setState("loading", "starting the worker");
    const worker = new Worker(this.url);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(worker, `it was not ready after ${this.readyTimeoutMs / 1000} s ` +
        `(last step: ${this.stage})`), this.readyTimeoutMs);
      this.settleStart = { resolve, reject, timer };
    });
    this.ready.catch(() => {}); // a failed start is reported through request() and onChange
    worker.onmessage = (event) => this.receive(worker, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.crash(worker, event.message || "the worker stopped with an error");
    };
    const extra = typeof this.startMessage === "function" ? this.startMessage() : this.startMessage;
    worker.postMessage({ ...extra, type: "start" });
    return this.ready;
  }

  /* Send `message` (an object; `id` is added) and resolve with the worker's answer. After `timeoutMs` of waiting
   * for a ready worker's answer, the worker is terminated and the request rejected with EngineStopped("timeout"). */
  async request(message, { timeoutMs = 5_000 } = {}) {
    await this.start();
    const worker = this.worker;
    if (!worker) throw new EngineStopped("crashed", "the engine stopped before the request was sent");
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // This request gets the timeout; any other one waiting on the same worker is told why it was stopped.
        this.pending.delete(id);
        reject(new EngineStopped("timeout", `stopped after ${timeoutMs / 1000} s without an answer`));
        this.stop(worker, new EngineStopped("crashed", "another request ran past its time limit"));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ ...message, id });
    });
  }

  /* Terminate the current worker (if any); its requests are rejected with `error`; the next request restarts. */
  stop(worker = this.worker, error = new EngineStopped("crashed", "the engine was stopped")) {
    if (!worker || worker !== this.worker) return;
    worker.terminate();
    this.worker = null;
    this.ready = null;
    if (this.settleStart) clearTimeout(this.settleStart.timer);
    this.settleStart = null;
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.pending.clear();
    this.setState("idle", "");
  }

  receive(worker, message) {
    if (worker !== this.worker) return; // from a worker already replaced
    if (message.type === "progress") {
      this.setState("loading", message.stage);
    } else if (message.type === "ready") {
      clearTimeout(this.settleStart.timer);
      this.settleStart.resolve();
      this.setState("ready", "");
    } else if (message.type === "failed") {
      this.fail(worker, message.reason);
    } else if (message.type === "died") {
      this.crash(worker, message.error);
    } else if (this.pending.has(message.id)) {
      const { resolve, reject, timer } = this.pending.get(message.id);
      clearTimeout(timer);
      this.pending.delete(message.id);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message);
    }
  }

  /* The worker stopped on its own while running: a crash, not a loading failure, so the next request restarts. */
  crash(worker, reason) {
    if (this.state === "loading") this.fail(worker, reason);
    else this.stop(worker, new EngineStopped("crashed", `the engine stopped (${reason})`));
  }

  fail(worker, reason) {
    if (worker !== this.worker) return;
    const start = this.settleStart;
    this.stop(worker, new EngineStopped("failed", reason));
    this.reason = reason;
    this.setState("failed", "");
    if (start) start.reject(new EngineStopped("failed", reason));
  }

  setState(state, stage) {
    this.state = state;
    this.stage = stage;
    this.onChange(this);
  }
}
