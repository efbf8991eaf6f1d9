/* One widget: ties its inputs (widget-state.js), its drawing (widget-render.js), its saved values
 * (widget-storage.js) and the engine (widget-engine.js) to the reader's edits. Pages arrive pre-rendered
 * (layerwise_build/livewidgets/render.py); this makes the cells editable and keeps the outputs in step with them. */
import { compute, engine, startEngine } from "./widget-engine.js";
import { announce, listOfNames } from "./widget-announce.js";
import { typing } from "./widget-pause.js";
import { HELP_ID } from "./widget-help.js";
import * as keys from "./widget-keys.js";
import { element, markCell, markScrolling, placeOver, placeUnder, renderInput, renderResizers, renderResult, setText, showCheck } from "./widget-render.js";
import { InputState, clone, planPaste } from "./widget-state.js";
import { savedValues, storeValues, writePendingLink } from "./widget-storage.js";

// an answer slower than this shows that the engine is working (Generation's first, which trains its model)
const WORKING_AFTER_MS = 300;
const COPIED_SHOWN_MS = 2500;

export class Widget {
  /* `onSave()` is called after this widget's values were stored, so the page can rewrite its link. */
  constructor(el, onSave) {
    this.el = el;
    this.id = el.dataset.widgetId;
    this.spec = JSON.parse(el.dataset.spec);
    this.start = JSON.parse(el.dataset.start);
    this.inputs = new InputState(this.spec, this.start);
    this.onSave = onSave;
    this.inFlight = false;
    this.dirty = false;
    this.unsaved = false; // edits computed live but not yet written to the URL and localStorage
    this.error = "";
    this.startResults = el.querySelector(".lw-results").cloneNode(true);
    this.buildControls();
    this.restore();
    this.renderInputs();
    this.showEngineState();
  }

  get values() { return this.inputs.values; } // read by the tests and the benchmark

  /* Values from the link first, then from localStorage; anything invalid is reported and ignored. */
  restore() {
    const saved = savedValues(this.id);
    if (saved === undefined) return;
    const problem = this.inputs.adopt(saved);
    if (problem) {
      this.setMessage(`The saved values of this example were not used: ${problem}.`, "error");
      return;
    }
    this.dirty = true;
    this.results().classList.add("lw-stale");
    this.setMessage("Your edited values are shown; the outputs update when the live engine is ready.", "info");
    startEngine();
  }

  buildControls() {
    const bar = this.el.querySelector(".lw-bar");
    this.stateEl = bar.querySelector(".lw-state");
    const reset = bar.querySelector(".lw-reset"); // written by the build at its size, inert until now
    reset.addEventListener("click", () => this.reset());
    const copy = bar.querySelector(".lw-copy");
    copy.addEventListener("click", () => this.copyLink(copy));
    reset.disabled = copy.disabled = false;
    this.messageEl = this.el.querySelector(".lw-message");
    // The message of a bad cell, shown under its matrix over whatever lies there (nothing moves); screen
    // readers get it from the cell itself (aria-describedby) and from the summary, so this copy is hidden from them.
    this.cellError = this.el.appendChild(element("p", "lw-bubble lw-cell-error"));
    this.cellError.setAttribute("aria-hidden", "true");
    this.cellError.hidden = true;
    this.copied = this.el.appendChild(element("p", "lw-bubble lw-copied", "Link copied")); // said by the announcer
    this.copied.setAttribute("aria-hidden", "true");
    this.copied.hidden = true;
    this.el.addEventListener("scroll", () => this.placeBubbles(), { capture: true, passive: true });
    new ResizeObserver(() => { markScrolling(this.el); this.placeBubbles(); }).observe(this.el);
    this.el.addEventListener("contentvisibilityautostatechange", (event) => { // rendered as it nears the screen
      if (!event.skipped && event.target === this.el) markScrolling(this.el);
    });
    this.el.addEventListener("focusin", (event) => this.onFocus(event));
    this.el.addEventListener("focusout", (event) => this.onBlur(event));
    this.el.addEventListener("pointerdown", (event) => { if (isGridCell(event.target)) keys.onCellPointerDown(event.target, event); });
    this.el.addEventListener("click", (event) => { if (isGridCell(event.target)) keys.onCellClick(event.target); });
    this.el.addEventListener("input", (event) => this.onInput(event));
    this.el.addEventListener("keydown", (event) => this.onKeydown(event));
    this.el.addEventListener("paste", (event) => this.onPaste(event));
    this.changed = {}; // {output name: Set of "r:c" changed} since the last announcement
  }

  onFocus(event) {
    startEngine();
    if (isCell(event.target)) {
      keys.onCellFocus(event.target);
    } else if (event.target.closest(".lw-resize")) {
      keys.onToolbarFocus(event.target);
    }
  }

  onBlur(event) {
    if (isCell(event.target)) keys.onCellBlur(event.target);
  }

  results() { return this.el.querySelector(".lw-results"); }

  showEngineState() {
    let state = "static";
    let text = "static";
    if (engine.state === "loading") { state = "loading"; text = `loading: ${engine.stage}…`; }
    if (engine.state === "ready") { state = this.error ? "error" : "live"; text = state; }
    if (this.el.dataset.state !== state) this.el.dataset.state = this.stateEl.dataset.state = state;
    setText(this.stateEl, text);
    this.stateEl.title = text; // the whole text where the badge is cut short
    if (engine.state === "ready" && this.dirty && !this.inFlight) this.send();
    if (engine.state === "failed" && this.dirty) this.setMessage("Not recomputed: the live engine could not load.", "error");
  }

  /* ----- inputs ----- */
  renderInputs() {
    for (const input of this.spec.inputs) {
      const figure = this.el.querySelector(`.lw-input[data-name="${CSS.escape(input.name)}"]`);
      renderInput(figure, this.spec, input, this.values[input.name], HELP_ID);
      renderResizers(figure, this.spec, input, this.inputs.shapeOf(input.name), (symbol, sign) => this.resize(symbol, sign));
    }
    this.inputs.bad.clear(); // every cell now shows a valid number again
    this.showCellError();
    this.markScrollingSoon();
  }

  resize(symbol, sign) {
    const pressed = document.activeElement;
    const figure = pressed && pressed.closest(".lw-input");
    this.inputs.resize(symbol, sign);
    this.renderInputs();
    if (figure) { // the buttons were drawn again: keep the keyboard where it was, or on the next button still usable
      const buttons = [...figure.querySelectorAll(".lw-resize button")].filter((b) => !b.disabled);
      (buttons.find((b) => b.textContent === pressed.textContent) || buttons[0] || figure.querySelector(".lw-cell")).focus();
    }
    this.edited();
  }

  onInput(event) {
    const box = event.target;
    if (!isCell(box)) return;
    typing();
    this.readCell(box);
    this.edited();
  }

  readCell(box) {
    const error = this.inputs.readCell(box.dataset.input, Number(box.dataset.row), Number(box.dataset.col), box.value);
    markCell(box, error);
    // a cell bounded by this one (warm-up steps by the steps) is right or wrong anew
    for (const name of this.inputs.boundedBy(box.dataset.input)) {
      this.el.querySelectorAll(`.lw-cell[data-input="${CSS.escape(name)}"]`).forEach((bound) => this.readCell(bound));
    }
  }

  /* After any change: report bad cells (outputs stay, dimmed) or save and recompute. */
  edited() {
    const results = this.results();
    const problem = this.inputs.problem();
    this.showCellError();
    if (problem) {
      results.classList.add("lw-stale");
      this.setMessage(problem, "error", this.inputs.bad.size > 0);
      announce(this.id, () => this.inputs.problem());
      return;
    }
    this.setMessage("", "");
    this.dirty = true;
    if (engine.state === "ready") {
      this.unsaved = true; // saved once the result is shown: storage and history writes stay off the edit's path
      if (!this.inFlight) this.send();
    } else {
      this.save();
      results.classList.add("lw-stale");
      if (engine.state === "failed") this.setMessage("Not recomputed: the live engine could not load.", "error");
      else { this.setMessage("Your edit is kept; it is computed as soon as the live engine is ready.", "info"); startEngine(); }
    }
  }

  async send() {
    this.dirty = false;
    this.inFlight = true;
    const values = clone(this.values);
    const sentAt = performance.now();
    const working = setTimeout(() => this.showWorking(true), WORKING_AFTER_MS);
    let answer;
    try {
      answer = await compute({ key: this.id, kind: this.spec.name, values,
                               onCheck: (check) => this.showCheck(check, values) });
    } catch (error) {
      // EngineStopped: the worker died, or was stopped for not answering, before this answer came
      if (error.cause === "crashed" || error.cause === "timeout") return this.lost();
      answer = { error: error.message };
    } finally {
      clearTimeout(working);
      this.showWorking(false);
    }
    this.inFlight = false;
    // An answer is shown only if it answers the cells as they are now: a cell typed bad meanwhile keeps its
    // message and the dimmed outputs, and newer values are sent below instead.
    if (this.answers(values)) {
      if (answer.error) this.showError(answer.error);
      else this.showResult(answer);
      this.el.dispatchEvent(new CustomEvent("layerwise:rendered", { bubbles: true, detail: { ms: performance.now() - sentAt } }));
    }
    if (this.dirty && engine.state === "ready") this.send();
    else if (this.unsaved) this.save();
  }

  /* While a slow answer is awaited, the outputs say "Computing…" (a label floated like "Out of date", so nothing
   * moves) and are aria-busy. */
  showWorking(on) {
    const results = this.results();
    results.classList.toggle("lw-working", on);
    results.toggleAttribute("aria-busy", on);
  }

  /* The engine died before answering: these values are not sent again by themselves (they might crash it again,
   * and again), so the outputs stay dimmed until the next edit, which the restarted engine answers (an edit made
   * meanwhile is sent once it is ready). The page's notice says what happened. */
  lost() {
    this.inFlight = false;
    this.results().classList.add("lw-stale");
    this.el.dispatchEvent(new CustomEvent("layerwise:lost", { bubbles: true }));
  }

  /* Do `values` (sent earlier) answer the cells as they are now? */
  answers(values) {
    return !this.inputs.problem() && JSON.stringify(values) === JSON.stringify(this.values);
  }

  /* The deferred gradient check, if the values it checked are still the ones shown. */
  showCheck(check, values) {
    const paragraph = this.el.querySelector(".lw-results .lw-gradcheck");
    if (!paragraph || !check || !this.answers(values) || this.error) return;
    showCheck(paragraph, check);
    if (this.lastResult) this.lastResult.gradcheck = check;
  }

  showError(message) {
    this.error = message;
    this.results().classList.add("lw-stale");
    this.setMessage(message, "error");
    announce(this.id, () => this.error);
    this.showEngineState();
  }

  showResult(result) {
    this.error = "";
    this.lastResult = result; // read by the browser tests to compare raw values with CPython
    for (const [name, where] of Object.entries(renderResult(this.spec, this.results(), result))) {
      this.changed[name] = new Set([...(this.changed[name] || []), ...where]);
    }
    announce(this.id, () => this.changeSummary());
    this.markScrollingSoon();
    if (result.nonfinite.length) {
      this.setMessage(`Not finite: ${result.nonfinite.join(", ")} (an overflow or a division by zero); ` +
                      "those cells show inf or nan.", "warning");
    } else {
      this.setMessage("", "");
    }
    this.showEngineState();
  }

  /* What the edits since the last announcement changed, e.g. "y and dx updated, 15 cells", or what is wrong. */
  changeSummary() {
    const names = Object.keys(this.changed);
    const cellCount = Object.values(this.changed).reduce((total, where) => total + where.size, 0);
    this.changed = {};
    if (this.inputs.problem() || this.error) return this.inputs.problem() || this.error;
    if (!names.length) return `${this.spec.title}: no output changed`;
    return `${listOfNames(names)} updated, ${cellCount} cell${cellCount === 1 ? "" : "s"}`;
  }

  /* ----- messages, keys, paste ----- */
  /* The widget's message line (a live region). A bad cell's message is shown next to the cell instead, so the
   * line then only speaks to screen readers: showing it too would push the outputs down while the reader types. */
  setMessage(text, level, nextToCell = false) {
    setText(this.messageEl, text);
    if (this.messageEl.dataset.level !== level) this.messageEl.dataset.level = level;
    this.messageEl.classList.toggle("lw-sr-only", nextToCell);
  }

  /* Measured before the next paint, off the edit's path; a change of the widget's size (a phone turned, a window
   * resized) measures again. */
  markScrollingSoon() {
    requestAnimationFrame(() => markScrolling(this.el));
  }

  /* Show the message of the focused bad cell, or else of the first one, under it; hide it when none is bad. */
  showCellError() {
    const focused = this.el.querySelector(".lw-cell.lw-bad:focus");
    this.errorCell = focused || this.el.querySelector(".lw-cell.lw-bad");
    this.cellError.hidden = !this.errorCell;
    if (!this.errorCell) return;
    this.cellError.textContent = document.getElementById(this.errorCell.getAttribute("aria-describedby")).textContent;
    this.placeBubbles();
  }

  /* Over the bad cell's own caption, just above its matrix: under the matrix it hid the next input's caption, and
   * beside it there is rarely room; the caption names the matrix the reader is already editing. */
  placeBubbles() {
    if (this.errorCell && !this.cellError.hidden) placeOver(this.el, this.cellError, this.errorCell.closest("figure").querySelector("figcaption"));
  }

  onKeydown(event) {
    const target = event.target;
    const restored = (box) => {
      this.readCell(box);
      this.edited();
    };
    if (isCell(target) && !isGridCell(target)) {
      keys.onTextKey(event, target, restored);
    } else if (isCell(target)) {
      keys.onCellKey(event, target, (r, c) => this.cell(target.dataset.input, r, c), restored);
    } else if (target.closest(".lw-resize")) {
      keys.onToolbarKey(event, target);
    }
  }

  cell(name, r, c) {
    return this.el.querySelector(`.lw-cell[data-input="${CSS.escape(name)}"][data-row="${r}"][data-col="${c}"]`);
  }

  onPaste(event) {
    const box = event.target;
    if (!isGridCell(box)) return; // a text field takes a paste as it is
    const text = (event.clipboardData || window.clipboardData).getData("text");
    if (text.trim() !== "" && !/[\t\n,; ]/.test(text.trim())) return; // one value: the browser pastes it
    event.preventDefault();
    this.pasteBlock(box, text);
  }

  /* Fill cells from the focused one; grow linked dimensions when the block needs more room. */
  pasteBlock(box, text) {
    const name = box.dataset.input;
    const plan = planPaste(this.spec, this.values, name, Number(box.dataset.row), Number(box.dataset.col), text);
    if (plan.error) { this.setMessage(plan.error, "error"); return; }
    for (const symbol of plan.grow) this.inputs.resize(symbol, 1);
    if (plan.grow.length) this.renderInputs();
    for (const [r, c, cellText] of plan.writes) {
      const target = this.cell(name, r, c);
      target.value = cellText;
      this.readCell(target);
    }
    this.edited();
  }

  /* ----- state in the URL and localStorage ----- */
  isAtStart() { return this.inputs.isAtStart(); }

  save() {
    this.unsaved = false;
    storeValues(this.id, this.values, this.isAtStart());
    this.onSave();
  }

  reset() {
    this.inputs.reset();
    this.dirty = false;
    this.error = "";
    this.renderInputs();
    this.results().replaceWith(this.startResults.cloneNode(true));
    this.markScrollingSoon();
    this.setMessage("", "");
    this.save();
    this.showEngineState();
  }

  /* The link goes to the clipboard; "Link copied" shows under the button for a moment (laid over the page, so
   * nothing moves) and is announced. Without clipboard access the link is shown to copy by hand. */
  async copyLink(button) {
    writePendingLink();
    try {
      await navigator.clipboard.writeText(location.href);
    } catch (e) {
      this.setMessage(`Copy this link: ${location.href}`, "info");
      return;
    }
    this.copied.hidden = false;
    placeUnder(this.el, this.copied, button, button);
    clearTimeout(this.copiedTimer);
    this.copiedTimer = setTimeout(() => { this.copied.hidden = true; }, COPIED_SHOWN_MS);
    announce(this.id, () => "Link copied: it reproduces this example exactly.");
  }
}

function isCell(node) {
  return Boolean(node.classList && node.classList.contains("lw-cell"));
}

/* A cell of a number grid (spreadsheet keys); a text input's cell (.lw-text) is an ordinary text field. */
function isGridCell(node) {
  return isCell(node) && !node.classList.contains("lw-text");
}
