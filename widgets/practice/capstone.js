/* "Build your GPT" on its page: which of the model's functions are the learner's (passed exercises in this
 * browser's storage, minus those switched back to the engine's), the Check, and a training run drawn as it goes.
 * The build rendered every box at its final size; this only fills texts, points and buttons' states.
 * The model is one of the build's presets (GPTConfig's switches), chosen in the Configuration select or by the
 * address's ?preset=NAME: its rows are shown, its functions sent, its curve drawn.
 * Test hook: Layerwise.capstone = {state, step, losses, reference, samples, sources, check, generated, timeline,
 * preset};
 * generated: {text, calls, cached, problem} of the last Generate; timeline:
 * [performance.now(), step] when Train was pressed and at each chunk shown (for the benchmark).
 * The run outlives the page's content: the worker keeps its model, so coming back (instant navigation) shows it
 * again, Download and Generate included, and leaving the site or reloading with a model not yet downloaded asks
 * first. */
import { TrainingRun, checkAssembly, checkpointBytes, generateText } from "./capstone-run.js";
import { LossChart } from "./capstone-chart.js";
import { onEngineChange } from "./engine.js";
import { loadEngineInstead, loadExercise, saveEngineInstead } from "./storage.js";

const BUTTONS = ["check", "train", "pause", "resume", "stop", "download", "generate"];
const STATS = ["step", "loss", "val", "speed", "elapsed", "remaining", "apart"];
let current = null; // the Capstone of the page set up last, which the run's progress goes to
const ENABLED = { // which buttons work in each state of the run
  idle: ["check", "train"], starting: ["stop"], running: ["pause", "stop"],
  paused: ["resume", "stop", "download", "generate"], done: ["check", "train", "download", "generate"],
  stopped: ["check", "train", "download", "generate"], failed: ["check", "train"], checking: [], generating: [],
};
const GENERATE_SETTINGS = ["prompt", "temperature", "top_k", "top_p"];

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

class Capstone {
  constructor(el) {
    this.el = el;
    this.data = JSON.parse(el.dataset.capstone);
    this.part = (name) => el.querySelector(`.lw-capstone__${name}`);
    this.buttons = Object.fromEntries(BUTTONS.map((name) => [name, this.part(name)]));
    this.selects = ["steps", "lr", "seed"].map((name) => this.part(name));
    this.presetSelect = this.part("preset");
    this.generateSettings = GENERATE_SETTINGS.map((name) => this.part(name));
    this.generated = { text: "", calls: {}, cached: false, problem: null };
    this.chart = new LossChart(this.part("chart"));
    this.rows = [...document.querySelectorAll(".lw-capstone__function")];
    this.engineOnly = [...document.querySelectorAll(".lw-capstone__engine-only")];
    this.count = document.querySelector(".lw-capstone__count");
    this.engineInstead = new Set(loadEngineInstead());
    this.state = "idle";
    this.run = null;
    this.losses = [];
    this.samples = [];
    this.lastCheck = null;
    this.timeline = [];
    this.apart = 0;
    const asked = this.askedPreset();
    this.showSources();
    for (const row of this.rows) {
      row.querySelector("input").addEventListener("change", (event) => this.switchSource(row, event.target.checked));
    }
    for (const select of this.selects) select.addEventListener("change", () => this.showReference());
    this.presetSelect.addEventListener("change", () => this.showPreset());
    const on = (name, action) => this.buttons[name].addEventListener("click", action);
    on("check", () => this.check());
    on("train", () => this.train());
    on("pause", () => this.run && this.run.pause());
    on("resume", () => this.run && this.run.resume());
    on("stop", () => this.run && this.run.stop());
    on("download", () => this.download());
    on("generate", () => this.generate());
    onEngineChange((client) => {
      if (client.state === "loading" && (this.state === "starting" || this.state === "checking")) {
        this.say(`Starting Python in this tab (a few seconds the first time): ${client.stage || "starting"}…`);
      }
    });
    this.showPreset();
    const previous = current;
    current = this;
    if (previous && previous.run) {
      this.adopt(previous);
      return;
    }
    this.setState("idle");
    this.say(asked.problem || "Ready. Check compares your functions with the engine's inside the model; Train trains " +
      "it here.");
  }

  /* The address's ?preset=NAME chosen when the page offers it; else GPT-2's, and a sentence naming what was asked. */
  askedPreset() {
    const asked = new URLSearchParams(window.location.search).get("preset");
    if (asked === null) return {};
    if (Object.hasOwn(this.data.presets, asked)) {
      this.presetSelect.value = asked;
      return {};
    }
    const offered = Object.keys(this.data.presets).join(", ");
    return { problem: `The address asks for the configuration "${asked}" (?preset=${asked}), which this page does ` +
      `not offer (it offers ${offered}): showing ${this.data.presets[this.presetSelect.value].label}.` };
  }

  /* The chosen configuration: its rows and not-called list, the settings it offers, its curve. */
  showPreset() {
    const preset = this.presetSelect.value;
    const offered = this.data.presets[preset].choices;
    ["steps", "lr", "seed"].forEach((name, i) => {
      const select = this.selects[i];
      for (const option of select.options) option.disabled = !offered[name].includes(Number(option.value));
      if (select.selectedOptions[0].disabled) select.value = String(this.data.defaults[name]);
    });
    for (const row of [...this.rows, ...this.engineOnly]) row.hidden = !this.called(row);
    for (const list of document.querySelectorAll(".lw-capstone__others")) list.hidden = list.dataset.preset !== preset;
    if (this.count) this.count.dataset.total = JSON.parse(this.count.dataset.totals)[preset];
    this.showSources();
    this.showReference();
  }

  /* Whether the chosen configuration's model calls the row's function. */
  called(row) {
    return row.dataset.presets.split(" ").includes(this.presetSelect.value);
  }

  /* The run of the page left before, with what it showed (its content was replaced, the worker kept the model). */
  adopt(previous) {
    this.run = previous.run;
    const kept = ["losses", "samples", "apart", "timeline", "lastCheck", "generated"];
    for (const name of kept) this[name] = previous[name];
    const { steps, lr, seed, preset } = this.run.settings;
    this.presetSelect.value = preset;
    this.showPreset();
    this.selects.forEach((select, i) => {
      const option = [...select.options].find((o) => Number(o.value) === [steps, lr, seed][i]);
      if (option) select.value = option.value;
    });
    this.showReference();
    this.chart.append(0, this.losses);
    for (const slot of previous.part("samples").querySelectorAll(".lw-capstone__sample-slot")) {
      const mine = this.part("samples").querySelector(`[data-step="${slot.dataset.step}"] samp`);
      if (mine) mine.textContent = slot.querySelector("samp").textContent;
    }
    this.part("generated").textContent = previous.part("generated").textContent;
    for (const name of STATS) this.stat(name, previous.part(name).textContent);
    this.say(previous.part("status").textContent);
    this.setState(this.run.state);
  }

  /* A model in the worker that was never downloaded (Download saved an earlier step, or nothing). */
  unsaved() {
    return Boolean(this.run && this.run.step > 0 && ["paused", "done", "stopped"].includes(this.run.state)
                   && this.run.savedStep !== this.run.step);
  }

  /* {exercise id: source} of the learner's functions in use by the chosen configuration's model. */
  sources() {
    const sources = {};
    for (const row of this.rows.filter((each) => this.called(each))) {
      const id = row.dataset.exercise;
      const saved = loadExercise(id);
      if (saved.passed && saved.code !== null && !this.engineInstead.has(id)) sources[id] = saved.code;
    }
    return sources;
  }

  showSources() {
    for (const row of this.rows) {
      const saved = loadExercise(row.dataset.exercise);
      const passed = saved.passed && saved.code !== null;
      const instead = this.engineInstead.has(row.dataset.exercise);
      row.querySelector(".lw-capstone__source").textContent = passed && !instead ? "yours" : "the engine's";
      row.dataset.source = passed && !instead ? "yours" : "engine";
      const box = row.querySelector("input");
      box.checked = instead;
      box.disabled = !passed || this.busy();
      row.querySelector(".lw-capstone__switch").dataset.shown = String(passed);
    }
    if (this.count) {
      const yours = this.rows.filter((row) => this.called(row) && row.dataset.source === "yours").length;
      this.count.querySelector("strong").textContent = `${yours} of ${this.count.dataset.total}`; // same width
    }
  }

  switchSource(row, toEngine) {
    if (toEngine) this.engineInstead.add(row.dataset.exercise);
    else this.engineInstead.delete(row.dataset.exercise);
    saveEngineInstead([...this.engineInstead]);
    this.showSources();
  }

  settings() {
    const [steps, lr, seed] = this.selects.map((select) => Number(select.value));
    return { steps, lr, seed, preset: this.presetSelect.value };
  }

  /* The engine's run with the chosen settings (its key as engine.capstone.reference.key spells it). */
  reference() {
    const { steps, lr, seed, preset } = this.settings();
    return this.data.reference[`${steps}-${lr}-${seed}${preset === "gpt2" ? "" : `-${preset}`}`];
  }

  /* The engine's run for the chosen settings: its curve, what to expect and its line among the samples. */
  showReference() {
    const reference = this.reference();
    this.chart.reset(this.settings().steps, reference.train);
    for (const span of this.el.querySelectorAll(".lw-capstone__expect-steps")) span.textContent = this.settings().steps;
    this.part("expect-val").textContent = reference.val[reference.val.length - 1][1].toFixed(4);
    this.part("expect-model").textContent = this.data.presets[this.presetSelect.value].label;
    this.part("engine-sample").querySelector("samp").textContent = oneLine(reference.sample);
  }

  busy() {
    return ["starting", "running", "paused", "checking", "generating"].includes(this.state);
  }

  setState(state) {
    this.state = state;
    const hasModel = Boolean(this.run && this.run.step > 0);
    for (const name of BUTTONS) {
      this.buttons[name].disabled = !ENABLED[state].includes(name) || (name === "download" && !hasModel);
    }
    for (const select of [...this.selects, this.presetSelect]) select.disabled = this.busy();
    for (const control of this.generateSettings) control.disabled = !ENABLED[state].includes("generate") || !hasModel;
    this.showSources();
  }

  say(text) {
    this.part("status").textContent = text;
  }

  stat(name, text) {
    this.part(name).textContent = text;
  }

  async check() {
    this.setState("checking");
    const sources = this.sources();
    const count = Object.keys(sources).length;
    this.say(`Checking ${count} function${count === 1 ? "" : "s"} of yours inside the model…`);
    try {
      const result = await checkAssembly(sources, this.presetSelect.value);
      this.lastCheck = result;
      this.say(checkText(result, count));
    } catch (error) {
      this.say(error.cause === "failed" ? `The check needs the live engine, which could not load here: ${error.message}.`
        : `The check stopped: ${error.message}. Its Python was shut down; the next Check starts a fresh one.`);
    }
    this.setState(this.run && this.run.step > 0 ? this.run.state : "idle");
  }

  train() {
    if (this.run) this.run.stop();
    const settings = this.settings();
    const reference = this.reference().train;
    this.showReference();
    this.losses = [];
    this.samples = [];
    this.apart = 0;
    this.timeline = [[performance.now(), 0]];
    for (const slot of this.part("samples").querySelectorAll(".lw-capstone__sample-slot samp")) slot.textContent = "–";
    for (const name of STATS) this.stat(name, "–");
    // to the page showing this run: this one, or the one that adopted it after instant navigation
    const shown = (action) => (...args) => { if (current && current.run === run) action(current, ...args); };
    const run = new TrainingRun({
      onState: shown((page, state) => {
        page.setState(state);
        if (state === "paused") page.sayPaused(run.step);
      }),
      onChunk: shown((page, chunk) => page.showChunk(chunk, settings, reference)),
      onEnd: shown((page, state, message) => page.say(endText(state, message, run, page.apart))),
    });
    run.settings = settings;
    this.run = run;
    const count = Object.keys(this.sources()).length;
    this.say(`Starting: ${count} function${count === 1 ? "" : "s"} of yours, graded again first…`);
    run.start(settings, this.sources());
  }

  showChunk(chunk, settings, reference) {
    if (!this.el.isConnected) { // instant navigation left the page: the worker need not go on training
      this.run.stop();
      return;
    }
    this.timeline.push([performance.now(), chunk.step]);
    const first = this.losses.length;
    this.losses.push(...chunk.losses);
    this.chart.append(first, chunk.losses);
    chunk.losses.forEach((loss, i) => {
      if (loss === null) this.apart = Infinity;
      else this.apart = Math.max(this.apart, Math.abs(loss - reference[first + i]));
    });
    const ms = this.run.elapsedMs();
    const speed = chunk.step / (ms / 1000);
    const last = chunk.losses[chunk.losses.length - 1];
    this.stat("step", `${chunk.step} / ${settings.steps}`);
    if (last !== undefined) this.stat("loss", last === null ? "not finite" : last.toFixed(4));
    if (chunk.val.length) {
      const [, val] = chunk.val[chunk.val.length - 1];
      this.stat("val", val === null ? "not finite" : val.toFixed(4));
    }
    this.stat("speed", speed.toFixed(1));
    this.stat("elapsed", seconds(ms));
    this.stat("remaining", seconds((settings.steps - chunk.step) / speed * 1000));
    this.stat("apart", apartText(this.apart));
    for (const [step, text] of chunk.samples) {
      this.samples.push(text);
      this.showSample(step, text);
    }
    if (this.state === "running") this.say(`Training: step ${chunk.step} of ${settings.steps}.`);
    if (this.state === "paused") this.sayPaused(chunk.step); // a chunk asked for before Pause landed
  }

  /* Each line in the slot the build made for its step, which has its room already: nothing below moves. */
  showSample(step, text) {
    this.part("samples").querySelector(`[data-step="${step}"] samp`).textContent = oneLine(text);
  }

  sayPaused(step) {
    this.say(`Paused after step ${step}. Resume goes on from there.`);
  }

  /* The trained model continues the prompt, streamed as the worker writes it: your sampler when you passed it, your
   * decode step and its cache when you passed that too (the worker counts the calls of each). */
  async generate() {
    const before = this.state;
    const [prompt, temperature, topK, topP] = this.generateSettings.map((control) => control.value);
    const output = this.part("generated");
    output.textContent = prompt;
    this.generated = { text: "", calls: {}, cached: false, problem: null };
    this.setState("generating");
    this.say("Generating…");
    const request = { prompt, tokens: this.data.generate.tokens, temperature: Number(temperature),
      top_k: Number(topK), top_p: Number(topP), seed: this.settings().seed };
    try {
      const result = await generateText(request, (text) => {
        this.generated.text += text;
        output.textContent += text;
        output.scrollTop = output.scrollHeight;
      });
      Object.assign(this.generated, result);
      const decodeStep = this.rows.some((row) => row.dataset.exercise === "kv-decode-step" && this.called(row));
      this.say(result.problem ? `Generation stopped: ${result.problem}.` : generatedText(this.generated, decodeStep));
    } catch (error) {
      this.generated.problem = error.message;
      this.say(`Generation stopped: ${error.message}. Its Python was shut down; train again to generate.`);
    }
    this.setState(before);
  }

  async download() {
    try {
      const bytes = await checkpointBytes();
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
      link.download = "your-gpt.npz";
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      this.run.savedStep = this.run.step;
      this.say("Saved your-gpt.npz: python -m engine talk --checkpoint your-gpt.npz --prompt \"Call me\"");
    } catch (error) {
      this.say(`The model could not be saved: ${error.message}.`);
    }
  }

  hook() {
    const capstone = this;
    return {
      get state() { return capstone.state; },
      get step() { return capstone.run ? capstone.run.step || 0 : 0; },
      get losses() { return capstone.losses; },
      get reference() { return capstone.reference().train; },
      get samples() { return capstone.samples; },
      get sources() { // the functions the chosen configuration's model calls
        const called = (rows) => rows.filter((row) => capstone.called(row));
        return Object.fromEntries([...called(capstone.engineOnly).map((row) => [row.dataset.function, "engine"]),
          ...called(capstone.rows).map((row) => [row.dataset.function, row.dataset.source])]);
      },
      get preset() { return capstone.presetSelect.value; },
      get check() { return capstone.lastCheck; },
      get generated() { return capstone.generated; },
      get timeline() { return capstone.timeline; },
    };
  }
}

/* As page.py's one_line: line breaks written " / ", stanza breaks " // ". */
function oneLine(sample) {
  return sample.replace(/\n{2,}/g, " // ").replace(/\n/g, " / ");
}

function apartText(apart) {
  if (apart === Infinity) return "yours is not finite";
  return apart === 0 ? "0 (identical)" : apart.toExponential(1);
}

function checkText(result, count) {
  if (result.problem) return `${result.problem}.`;
  if (result.ok) {
    const which = count ? `Your ${count} function${count === 1 ? "" : "s"} and the engine's agree inside the model`
      : "Every function is the engine's (pass an exercise to make one yours), and the model agrees with itself";
    return `${which}: loss ${result.loss[0].toFixed(6)}; the largest gradient difference, relative, is ` +
      `${result.worst.error.toExponential(1)} (${result.worst.name}).`;
  }
  const culprit = result.culprit;
  if (!culprit) return "The loss or a gradient differs, yet every call of yours agreed with the engine's on its inputs.";
  if (culprit.error) return `Not the engine's result: ${culprit.problem}.`;
  return `Not the engine's result. The first function of yours that differs inside the model is ${culprit.function}, ` +
    `in ${culprit.where}, given ${culprit.shapes}: ${culprit.problem}.`;
}

/* decodeStep: whether the configuration's model calls the decode step's exercise (it is written for GPT-2's
 * attention). */
function generatedText({ text, calls, cached }, decodeStep) {
  const draws = calls["sample-next"] ? `your sample_next (${calls["sample-next"]} draws)` : "the engine's sampler";
  const without = decodeStep ? "pass the decode step's exercise to use yours"
    : "the decode step's exercise is written for GPT-2's attention";
  const cache = cached ? `, and the KV cache with your attention_step (${calls["kv-decode-step"] || 0} calls)`
    : `, without the KV cache (${without})`;
  return `Generated ${text.length} characters with ${draws}${cache}.`;
}

function endText(state, message, run, apart) {
  if (state === "done") {
    return `Done: ${run.step} steps in ${seconds(run.elapsedMs())}. Largest gap to the engine's curve: ` +
      `${apartText(apart)}. Download your model, or train again.`;
  }
  if (state === "stopped") return `Stopped at step ${run.step || 0}. Download what it learned so far, or train again.`;
  return message;
}

window.addEventListener("beforeunload", (event) => {
  if (current && current.unsaved()) event.preventDefault(); // the browser asks before the model is lost
});

export function initCapstone(el) {
  if (el.dataset.lwReady) return;
  el.dataset.lwReady = "true";
  window.Layerwise = window.Layerwise || {};
  window.Layerwise.capstone = new Capstone(el).hook();
}
