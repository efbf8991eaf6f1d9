/* One training run of "Build your GPT", seen from the page: the practice worker holds the model between requests and
 * the page asks for one chunk of steps after another, so Pause is not asking for the next chunk and Resume asks
 * again. A chunk ends before a step would take it past CHUNK_BUDGET_MS, so progress arrives several times a second;
 * a chunk that does not come back at all (the worker stops a learner's Python loop itself after 3 s; a hang inside
 * NumPy it cannot) terminates the worker, and the next request starts a fresh one. */
import {
  Unreadable, checkResult, chunkResult, generateChunkResult, generateStartResult, startResult,
} from "./answers.js";
import { ask } from "./engine.js";

export const CHUNK_BUDGET_MS = 200; // with the next step predicted from the last, chunks stay under ~250 ms
export const CHUNK_LIMIT_MS = 8_000;
const SETUP_LIMIT_MS = 30_000; // grading every source again, and (first time) importing the trainer and the grader

function capstone(message, timeoutMs, read) {
  return ask({ type: "capstone", ...message }, timeoutMs, (answer) => read(answer.json));
}

/* The assembly check of {exercise id: source} on the preset's model: engine.capstone.check's dict, or {ok: false,
 * problem}. */
export function checkAssembly(sources, preset) {
  return capstone({ op: "check", json: JSON.stringify({ sources, preset }) }, SETUP_LIMIT_MS, checkResult);
}

/* The current run's model as the bytes of a checkpoint file. */
export function checkpointBytes() {
  return ask({ type: "capstone", op: "checkpoint" }, SETUP_LIMIT_MS, ({ data }) => {
    if (!(data instanceof Uint8Array)) throw new Unreadable("no checkpoint bytes");
    return data;
  });
}

/* Generation from the model in the worker: `request` {prompt, tokens, temperature, top_k, top_p, seed}; onText(text)
 * gets the characters as they come. Resolves with {problem, cached, calls}: calls counts each of the learner's
 * functions that ran (exercise id -> calls). */
export async function generateText(request, onText) {
  const start = await capstone({ op: "generate", json: JSON.stringify(request) }, SETUP_LIMIT_MS, generateStartResult);
  if (!start.ok) return { problem: start.problem, cached: false, calls: {} };
  const calls = {};
  for (;;) {
    const chunk = await capstone({ op: "more", budgetMs: CHUNK_BUDGET_MS }, CHUNK_LIMIT_MS, generateChunkResult);
    for (const [id, count] of Object.entries(chunk.calls)) calls[id] = (calls[id] || 0) + count;
    if (chunk.text) onText(chunk.text);
    if (chunk.problem || chunk.done) return { problem: chunk.problem, cached: start.cached, calls };
  }
}

export class TrainingRun {
  /* onChunk(chunk): each chunk's {step, losses, val, samples, done}; onEnd(state, message): "done" | "stopped" |
   * "failed"; onState(state): every change, for the buttons. */
  constructor({ onChunk, onEnd, onState }) {
    Object.assign(this, { onChunk, onEnd, onState });
    this.state = "starting"; // starting | running | paused | done | stopped | failed
    this.asking = false;
    this.stopWanted = false;
    this.runningSince = 0;
    this.runningMs = 0; // time spent running, pauses left out
  }

  async start(settings, sources) {
    this.setState("starting");
    let answer;
    try {
      answer = await capstone({ op: "start", json: JSON.stringify({ sources, ...settings }) }, SETUP_LIMIT_MS,
                              startResult);
    } catch (error) {
      return this.end("failed", stoppedText(error, 0));
    }
    if (this.state !== "starting") return undefined; // stopped while starting
    if (!answer.ok) return this.end("failed", answer.problem);
    this.step = 0;
    this.resume();
    return undefined;
  }

  pause() {
    if (this.state !== "running") return;
    this.runningMs += performance.now() - this.runningSince;
    this.setState("paused");
  }

  resume() {
    if (this.state !== "paused" && this.state !== "starting") return;
    this.runningSince = performance.now();
    this.setState("running");
    this.askForMore();
  }

  /* A chunk already asked for is waited for and shown, so the page's step is the model's (Download saves it). */
  stop() {
    if (!["starting", "running", "paused"].includes(this.state)) return;
    if (this.asking) this.stopWanted = true;
    else this.end("stopped", "");
  }

  elapsedMs() {
    return this.runningMs + (this.state === "running" ? performance.now() - this.runningSince : 0);
  }

  async askForMore() {
    while (this.state === "running" && !this.asking && !this.stopWanted) {
      this.asking = true;
      let chunk;
      try {
        chunk = await capstone({ op: "run", maxSteps: 100_000, budgetMs: CHUNK_BUDGET_MS }, CHUNK_LIMIT_MS,
                               chunkResult);
      } catch (error) {
        this.asking = false;
        if (this.state === "running" || this.state === "paused") this.end("failed", stoppedText(error, this.step + 1));
        return;
      }
      this.asking = false;
      if (this.state === "stopped" || this.state === "failed") return; // the chunk of a run already ended
      this.step = chunk.step;
      this.onChunk(chunk);
      if (chunk.problem) this.end("failed", `Training stopped: ${chunk.problem}.`);
      else if (chunk.done) this.end("done", "");
      else if (this.stopWanted) this.end("stopped", "");
    }
  }

  end(state, message) {
    if (this.state === "running") this.runningMs += performance.now() - this.runningSince;
    this.setState(state);
    this.onEnd(state, message);
  }

  setState(state) {
    this.state = state;
    this.onState(state);
  }
}

/* No answer from the worker: the time limit, a crash, or an engine that cannot load here. */
function stoppedText(error, step) {
  if (error.cause === "timeout") {
    return `Training stopped at step ${step}: Python did not answer for ${CHUNK_LIMIT_MS / 1000} s (a function ` +
      "of yours stuck inside NumPy?). Its Python was shut down; the next Train starts a fresh one.";
  }
  if (error.cause === "failed") return `Training needs the live engine, which could not load here: ${error.message}.`;
  return `Training stopped at step ${step}: ${error.message}. The next Train starts a fresh Python.`;
}
