/* "Inside a trained model": the page's live half. It sends the reader's prompt and settings to the widgets' worker
 * (engine.inside.analysis there), puts the panels' HTML that Python made in place of the pre-rendered ones, and
 * streams Generate one character per request. The math and every number's text are Python's; this file only
 * moves focus, shows a heat-map cell's value, and keeps at most one request in flight.
 * Test hook: window.Layerwise.explorer = {prompt, attention[block][head][query][key], next: [[char, p]...]}, and
 * data-answers on the controls counts the answers shown. */
import { engine, onEngineChange, request, startEngineAfterFirstPaint } from "./widget-engine.js";

const ASSETS = new URL(".", import.meta.url).href; // …/assets/layerwise/
const LIVE_PANELS = ["tokens", "attention", "rms", "next"];

function setUp() {
  const controls = document.querySelector(".lw-inside-controls");
  if (!controls || controls.dataset.live) return;
  controls.dataset.live = "true";
  const page = new InsidePage(controls);
  page.start();
}

class InsidePage {
  constructor(controls) {
    this.controls = controls;
    this.panels = {};
    for (const el of document.querySelectorAll(".lw-inside[data-panel]")) this.panels[el.dataset.panel] = el;
    this.fields = {
      prompt: controls.querySelector("#lw-inside-prompt"),
      temperature: controls.querySelector("#lw-inside-temperature"),
      topK: controls.querySelector("#lw-inside-top-k"),
      seed: controls.querySelector("#lw-inside-seed"),
    };
    this.message = controls.querySelector("#lw-inside-message");
    this.builtNote = this.message.textContent; // about the default prompt the panels show until the engine runs
    this.edited = false; // the reader typed before the engine was ready
    this.button = controls.querySelector("#lw-inside-generate");
    this.output = document.querySelector("#lw-inside-generated");
    this.modelURL = new URL(controls.dataset.model, ASSETS).href;
    this.modelPath = `/tmp/${controls.dataset.model}`;
    this.newCharacters = Number(controls.dataset.new);
    this.modelFor = 0; // engine.starts of the worker that holds the checkpoint file
    this.inFlight = false;
    this.run = 0; // generation run id; a new edit or a new Generate makes the old run stop
    window.Layerwise = window.Layerwise || {};
    window.Layerwise.explorer = JSON.parse(controls.dataset.initial);
    this.tip = document.createElement("div");
    this.tip.className = "lw-heat-tip";
    this.tip.setAttribute("aria-hidden", "true");
    this.panels.attention.append(this.tip);
    this.prepareMaps();
  }

  start() {
    for (const field of Object.values(this.fields)) {
      if (field !== this.fields.seed) field.addEventListener("input", () => { this.run += 1; this.edited = true; this.analyse(); });
    }
    this.button.addEventListener("click", () => this.generate());
    const attention = this.panels.attention;
    attention.addEventListener("keydown", (event) => this.onMapKey(event));
    attention.addEventListener("focusin", (event) => this.showTip(event.target));
    attention.addEventListener("mouseover", (event) => this.showTip(event.target));
    attention.addEventListener("focusout", () => this.hideTip());
    attention.addEventListener("mouseleave", () => this.hideTip());
    onEngineChange(() => this.onEngine());
    startEngineAfterFirstPaint();
    this.onEngine();
  }

  onEngine() {
    if (engine.state === "loading") this.sayLoading();
    if (engine.state === "ready" && !this.readyOnce) {
      this.readyOnce = true;
      this.analyse();
    } else if (engine.state === "failed") {
      this.say(`The live engine could not start (${engine.reason}); the panels show the default prompt.`, true);
    }
  }

  /* While the engine loads: its stage, and that an edit is kept (the panels still show the default prompt, so the
   * build's note about that prompt goes once the reader has typed another). */
  sayLoading() {
    const stage = `Loading the live engine: ${engine.stage || "starting"}…`;
    this.say(this.edited ? `Your edit is kept; it is computed as soon as the live engine is ready. The panels still ` +
                           `show the default prompt. ${stage}` : `${this.builtNote} ${stage}`, false);
  }

  /* The field's own range, said before Python is asked (an emptied field reads as NaN, not as 0). */
  temperatureProblem(value) {
    const { min, max } = this.fields.temperature;
    if (Number.isNaN(value)) return `Temperature is empty or not a number: type one from ${min} to ${max}.`;
    if (value < Number(min) || value > Number(max)) return `Temperature must be from ${min} to ${max}, got ${value}.`;
    return "";
  }

  values() {
    return {
      prompt: this.fields.prompt.value,
      temperature: this.fields.temperature.value === "" ? NaN : Number(this.fields.temperature.value),
      top_k: Number(this.fields.topK.value),
    };
  }

  async ask(body) {
    if (this.modelFor !== engine.starts) { // the first request of this worker: it needs the checkpoint file
      await request({ type: "file", url: this.modelURL, path: this.modelPath });
      this.modelFor = engine.starts;
    }
    return request({ type: "inside", request: JSON.stringify({ ...body, checkpoint: this.modelPath }) });
  }

  /* One analysis in flight; an edit meanwhile is sent when it is answered, so the last answer is the latest text. */
  async analyse() {
    if (engine.state === "loading") this.sayLoading();
    if (engine.state !== "ready") return;
    if (this.inFlight) { this.stale = true; return; }
    this.inFlight = true;
    this.stale = false;
    const sent = this.values();
    const problem = this.temperatureProblem(sent.temperature);
    if (problem) {
      this.say(problem, true);
      this.button.disabled = true;
      this.inFlight = false;
      return;
    }
    try {
      const result = await this.ask({ action: "analyse", ...sent });
      if (!this.stale) this.show(result, sent);
    } catch (error) {
      this.say(`The live engine failed: ${error.message}`, true);
    } finally {
      this.inFlight = false;
      if (this.stale) this.analyse();
    }
  }

  show(result, sent) {
    if (result.error) { // nothing else changes: the panels keep the last prompt that worked
      this.say(result.error, true);
      this.button.disabled = true;
      return;
    }
    for (const name of LIVE_PANELS) {
      const nodes = this.panelNodes(result.html[name]);
      if (name === "attention") this.panels.attention.replaceChildren(...nodes, this.tip);
      else this.panels[name].replaceChildren(...nodes);
    }
    this.prepareMaps();
    this.output.textContent = "";
    window.Layerwise.explorer = { prompt: result.prompt, attention: result.attention, next: result.next,
                                  temperature: sent.temperature, top_k: sent.top_k };
    this.say(result.note || "Recomputed by the live engine for this prompt.", false);
    this.button.disabled = false;
    this.controls.dataset.answers = String(Number(this.controls.dataset.answers || 0) + 1); // read by the tests
  }

  panelNodes(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content.childNodes;
  }

  async generate() {
    const run = ++this.run;
    this.button.disabled = true;
    this.output.textContent = "";
    const body = { action: "step", run, ...this.values(), seed: Number(this.fields.seed.value) };
    window.Layerwise.explorer.generated = "";
    try {
      for (let step = 1; step <= this.newCharacters && run === this.run; step++) {
        const result = await this.ask(body);
        if (run !== this.run) break;
        if (result.error) { this.say(result.error, true); break; }
        this.panels.next.replaceChildren(...this.panelNodes(result.html.next));
        this.output.innerHTML = result.html.generated;
        this.output.scrollTop = this.output.scrollHeight; // the newest character in view
        Object.assign(window.Layerwise.explorer, { next: result.next, generated: result.text });
        this.say(`Generated ${step} of ${this.newCharacters} characters.`, false);
        await new Promise((resolve) => requestAnimationFrame(resolve)); // let the character be drawn
      }
    } catch (error) {
      this.say(`The live engine failed: ${error.message}`, true);
    } finally {
      if (run === this.run) this.button.disabled = false;
    }
  }

  say(text, isError) {
    if (this.message.textContent !== text) this.message.textContent = text;
    this.message.classList.toggle("lw-inside-error", isError);
  }

  /* Each map is one tab stop (its first cell); the arrow keys, Home and End move inside it. */
  prepareMaps() {
    for (const table of this.panels.attention.querySelectorAll("table.lw-heat")) {
      const first = table.querySelector("td[style]");
      if (first) first.tabIndex = 0;
    }
  }

  onMapKey(event) {
    const cell = event.target.closest("td[style]");
    if (!cell) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const rows = [...cell.closest("tbody").rows].filter((row) => row.querySelector("td[style]"));
    const n = rows.length;
    let q = rows.indexOf(cell.parentElement);
    let k = [...cell.parentElement.querySelectorAll("td[style]")].indexOf(cell);
    if (moves[event.key]) {
      q = Math.min(n - 1, Math.max(0, q + moves[event.key][0]));
      k = Math.min(n - 1, Math.max(0, k + moves[event.key][1]));
    } else if (event.key === "Home") k = 0;
    else if (event.key === "End") k = n - 1;
    else return;
    event.preventDefault();
    const target = rows[q].querySelectorAll("td[style]")[k];
    cell.tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
  }

  showTip(target) {
    const cell = target.closest && target.closest("td[style]");
    if (!cell) return;
    const table = cell.closest("table");
    const k = [...cell.parentElement.querySelectorAll("td[style]")].indexOf(cell);
    const query = cell.parentElement.querySelector("th").textContent;
    const key = table.tHead.rows[0].querySelectorAll("th")[k].textContent;
    const q = [...cell.closest("tbody").rows].indexOf(cell.parentElement);
    this.tip.textContent = `query ${q} ${query}, key ${k} ${key}: ${cell.textContent}`;
    const box = this.panels.attention.getBoundingClientRect();
    const at = cell.getBoundingClientRect();
    this.tip.style.transform = `translate(${at.left - box.left}px, ${at.bottom - box.top + 4}px)`;
    this.tip.classList.add("lw-shown");
  }

  hideTip() {
    this.tip.classList.remove("lw-shown");
  }
}

if (window.document$ && window.document$.subscribe) window.document$.subscribe(setUp);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
else setUp();
