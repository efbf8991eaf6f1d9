/* Layerwise widgets, part 2: the editable matrices and the client of the one Pyodide worker.
 * Pages arrive pre-rendered (scripts/livewidgets/render.py); this file makes the cells editable, starts the worker
 * when a widget is seen or focused, and redraws outputs from the worker's JSON with textContent only (the
 * Python-made SVG of a plot is the one markup inserted). The worker lives in module scope, so mkdocs-material's
 * instant navigation (document$) reuses it on the next page. */
(function () {
  "use strict";
  const cells = window.Layerwise.cells;
  const ASSETS = new URL(".", document.currentScript.src).href; // …/assets/layerwise/
  const STORAGE_PREFIX = "layerwise:";
  const GROUP_TITLES = { step: "Intermediate steps", forward: "Forward", backward: "Backward" };

  /* ---------- the engine: one worker per tab ---------- */
  const engine = {
    state: "idle", // idle | loading | ready | failed
    stage: "",
    reason: "",
    worker: null,
    pending: new Map(),
    checks: new Map(), // request id -> callback for its gradient check, which arrives after the result
    nextId: 1,
    timer: null,
    startedAt: 0,
    starts: 0, // how many workers this tab created (tests check navigation does not add one)
    timeline: [], // [stage, ms since navigation start] of the latest start
  };

  function broadcast() {
    for (const widget of pageWidgets) widget.showEngineState();
    showNotice();
    document.dispatchEvent(new CustomEvent("layerwise:engine", { detail: { state: engine.state } }));
  }

  function startEngine() {
    if (engine.state === "loading" || engine.state === "ready" || engine.state === "failed") return;
    engine.state = "loading";
    engine.stage = "starting the worker";
    engine.startedAt = performance.now();
    engine.timeline = [[engine.stage, engine.startedAt]];
    engine.starts += 1;
    broadcast();
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
    engine.timer = setTimeout(() => {
      failEngine(`it was not ready after ${config.readyTimeoutMs / 1000} s (last step: ${engine.stage}); ` +
                 "a .wasm file served with the wrong MIME type makes Pyodide hang like this");
    }, config.readyTimeoutMs);
    worker.postMessage({
      type: "start",
      pyodideURL: new URL(config.pyodide, ASSETS).href,
      lockFileURL: new URL(config.lockFile, ASSETS).href,
    });
  }

  function failEngine(reason) {
    clearTimeout(engine.timer);
    if (engine.worker) engine.worker.terminate();
    engine.worker = null;
    engine.state = "failed";
    engine.reason = reason;
    for (const { reject } of engine.pending.values()) reject(new Error(reason));
    engine.pending.clear();
    engine.checks.clear();
    broadcast();
  }

  function onWorkerMessage(worker, message) {
    if (worker !== engine.worker) return; // a message from a worker already replaced
    if (message.type === "progress") {
      engine.stage = message.stage;
      engine.timeline.push([message.stage, performance.now()]); // read by the benchmark
      broadcast();
    } else if (message.type === "ready") {
      clearTimeout(engine.timer);
      engine.state = "ready";
      engine.readyAt = performance.now();
      engine.timeline.push(["ready", engine.readyAt]);
      broadcast();
    } else if (message.type === "failed") {
      failEngine(message.reason);
    } else if (message.type === "check") {
      const entry = engine.checks.get(message.id);
      engine.checks.delete(message.id);
      if (entry) entry.onCheck(JSON.parse(message.json));
    } else if (message.type === "result" || message.type === "died") {
      const request = engine.pending.get(message.id);
      engine.pending.delete(message.id);
      engine.pythonMs = message.ms; // time inside Python for the latest result (read by the benchmark)
      if (request) {
        if (message.error !== undefined) request.reject(new Error(message.error));
        else request.resolve(JSON.parse(message.json));
      }
      if (message.type === "died") onWorkerDied(worker, message.error);
    }
  }

  function onWorkerDied(worker, reason) {
    if (worker !== engine.worker) return;
    if (engine.state !== "ready") { failEngine(reason); return; }
    worker.terminate();
    engine.worker = null;
    for (const { reject } of engine.pending.values()) reject(new Error(`the live engine stopped (${reason}); restarting it`));
    engine.pending.clear();
    engine.checks.clear();
    engine.state = "idle";
    startEngine();
  }

  /* Ask for one result; `key` (the widget's id) lets the worker drop that widget's superseded gradient check. */
  function compute(key, kind, values, onCheck) {
    return new Promise((resolve, reject) => {
      const id = engine.nextId++;
      for (const [oldId, entry] of engine.checks) if (entry.key === key) engine.checks.delete(oldId);
      engine.checks.set(id, { key, onCheck });
      engine.pending.set(id, { resolve, reject });
      engine.worker.postMessage({ type: "compute", id, key, kind, inputs: JSON.stringify(values) });
    });
  }

  /* ---------- one notice per page when the engine cannot load ---------- */
  function showNotice() {
    const existing = document.querySelector(".lw-notice");
    if (engine.state !== "failed" || !pageWidgets.length) {
      if (existing) existing.remove();
      return;
    }
    const notice = existing || document.createElement("p");
    notice.className = "lw-notice";
    notice.setAttribute("role", "alert");
    notice.textContent = `The live engine could not load: ${engine.reason}. Every value on this page was computed ` +
                         "by the same engine when the site was built, so it stays readable; edits are not recomputed.";
    if (!existing) pageWidgets[0].el.before(notice);
  }

  /* ---------- a widget ---------- */
  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function clone(value) {
    return JSON.parse(JSON.stringify(value));
  }

  /* The rows of a grid: a matrix as is, a list as one row, a number as one cell. */
  function rowsOf(dims, value) {
    return dims.length === 2 ? value : [dims.length === 1 ? value : [value]];
  }

  /* Output blocks in the order the widget shows them: by group, then as the kind listed them. */
  function orderedBlocks(result) {
    return Object.keys(GROUP_TITLES).flatMap((group) => result.blocks.filter((b) => b.group === group));
  }

  /* {output name: rows of the texts shown}, to mark what a new result changed. */
  function readCells(results) {
    const shown = new Map();
    for (const figure of results.querySelectorAll(".lw-output")) {
      shown.set(figure.dataset.name, [...figure.querySelectorAll("tbody tr")]
        .map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    }
    return shown;
  }

  function showCheckIn(paragraph, check) {
    paragraph.textContent = check.text;
    paragraph.dataset.ok = String(check.ok);
    if (check.pending) paragraph.dataset.pending = "true";
    else delete paragraph.dataset.pending;
  }

  function storageKey(id) {
    return STORAGE_PREFIX + location.pathname + ":" + id;
  }

  class Widget {
    constructor(el) {
      this.el = el;
      this.id = el.dataset.widgetId;
      this.spec = JSON.parse(el.dataset.spec);
      this.start = JSON.parse(el.dataset.start);
      this.values = clone(this.start);
      this.bad = new Map(); // "X:r:c" -> message, for cells that are not numbers
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

    /* Values from the link first, then from localStorage; anything invalid is reported and ignored. */
    restore() {
      const fromLink = cells.readFragment(location.hash)[this.id];
      let saved = fromLink;
      if (saved === undefined) {
        try { saved = JSON.parse(localStorage.getItem(storageKey(this.id)) || "null") || undefined; } catch (e) { saved = undefined; }
      }
      if (saved === undefined) return;
      const problem = cells.checkValues(this.spec, saved);
      if (problem) {
        this.setMessage(`The saved values of this example were not used: ${problem}.`, "error");
        return;
      }
      this.values = saved;
      this.dirty = true;
      this.el.querySelector(".lw-results").classList.add("lw-stale");
      this.setMessage("Your edited values are shown; the outputs update when the live engine is ready.", "info");
      startEngine();
    }

    buildControls() {
      const bar = this.el.querySelector(".lw-bar");
      this.stateEl = bar.querySelector(".lw-state");
      const reset = element("button", "lw-button lw-reset", "Reset");
      reset.type = "button";
      reset.addEventListener("click", () => this.reset());
      const copy = element("button", "lw-button lw-copy", "Copy link");
      copy.type = "button";
      copy.addEventListener("click", () => this.copyLink());
      bar.append(reset, copy);
      this.messageEl = this.el.querySelector(".lw-message");
      this.el.addEventListener("focusin", () => startEngine());
      this.el.addEventListener("input", (event) => this.onInput(event));
      this.el.addEventListener("keydown", (event) => this.onKeydown(event));
      this.el.addEventListener("paste", (event) => this.onPaste(event));
    }

    showEngineState() {
      let state = "static";
      let text = "static";
      if (engine.state === "loading") { state = "loading"; text = `loading: ${engine.stage}…`; }
      if (engine.state === "ready") { state = this.error ? "error" : "live"; text = state; }
      this.stateEl.dataset.state = state;
      this.stateEl.textContent = text;
      this.el.dataset.state = state;
      if (engine.state === "ready" && this.dirty && !this.inFlight) this.send();
      if (engine.state === "failed" && this.dirty) this.setMessage("Not recomputed: the live engine could not load.", "error");
    }

    /* ----- inputs ----- */
    input(name) { return this.spec.inputs.find((i) => i.name === name); }

    renderInputs() {
      for (const input of this.spec.inputs) {
        const figure = this.el.querySelector(`.lw-input[data-name="${CSS.escape(input.name)}"]`);
        const value = this.values[input.name];
        const shape = cells.shapeOf(value, input.dims.length);
        figure.querySelector(".lw-shape").textContent = cells.shapeText(shape);
        const table = this.grid(input.dims, value, (r, c, v) => {
          const td = element("td");
          const box = element("input", "lw-cell");
          box.type = "text";
          box.inputMode = "decimal";
          box.autocomplete = "off";
          box.spellcheck = false;
          box.value = String(v);
          box.dataset.input = input.name;
          box.dataset.row = r;
          box.dataset.col = c;
          box.setAttribute("aria-label", cells.cellName(input.name, input.dims.length, r, c));
          td.append(box);
          return td;
        });
        figure.querySelector("table").replaceWith(table);
        this.renderResizers(figure, input);
      }
      this.bad.clear();
    }

    grid(dims, value, makeCell) {
      const table = element("table", "lw-grid");
      const matrix = rowsOf(dims, value);
      if (dims.length) {
        const head = element("tr");
        head.append(element("th"));
        const prefix = this.spec.dims[dims[dims.length - 1]].prefix;
        matrix[0].forEach((_, c) => head.append(element("th", "", prefix + c)));
        table.appendChild(element("thead")).append(head);
      }
      const body = table.appendChild(element("tbody"));
      matrix.forEach((row, r) => {
        const tr = body.appendChild(element("tr"));
        if (dims.length) tr.append(element("th", "", dims.length === 2 ? this.spec.dims[dims[0]].prefix + r : ""));
        row.forEach((v, c) => tr.append(makeCell(r, c, v)));
      });
      return table;
    }

    renderResizers(figure, input) {
      let box = figure.querySelector(".lw-resize");
      if (!box) box = figure.appendChild(element("div", "lw-resize"));
      box.replaceChildren();
      const shape = cells.shapeOf(this.values[input.name], input.dims.length);
      input.dims.forEach((symbol, axis) => {
        const dim = this.spec.dims[symbol];
        if (!dim.resizable) return;
        const word = input.dims.length === 2 ? ["row", "column"][axis] : "entry";
        for (const [sign, label] of [[1, "+"], [-1, "−"]]) {
          const button = element("button", "lw-button lw-size", `${label} ${word}`);
          button.type = "button";
          button.title = `${sign > 0 ? "Add" : "Remove"} a ${word} of ${input.name} (${symbol}); linked inputs follow`;
          button.disabled = sign > 0 ? shape[axis] >= dim.max : shape[axis] <= dim.min;
          button.addEventListener("click", () => this.resize(symbol, sign));
          box.append(button);
        }
      });
    }

    /* Grow or shrink dimension `symbol` by one in every input that carries it. */
    resize(symbol, sign) {
      for (const input of this.spec.inputs) {
        input.dims.forEach((s, axis) => {
          if (s !== symbol) return;
          const value = this.values[input.name];
          const rows = input.dims.length === 2 && axis === 1 ? value : null;
          if (rows) rows.forEach((row) => (sign > 0 ? row.push(0) : row.pop()));
          else if (input.dims.length === 2) sign > 0 ? value.push(value[0].map(() => 0)) : value.pop();
          else sign > 0 ? value.push(0) : value.pop();
        });
      }
      this.renderInputs();
      this.edited();
    }

    onInput(event) {
      const box = event.target;
      if (!box.classList || !box.classList.contains("lw-cell")) return;
      this.readCell(box);
      this.edited();
    }

    readCell(box) {
      const input = this.input(box.dataset.input);
      const r = Number(box.dataset.row);
      const c = Number(box.dataset.col);
      const key = `${input.name}:${r}:${c}`;
      const parsed = cells.parseCell(box.value, cells.cellName(input.name, input.dims.length, r, c), input.integer,
                                    input.bounds);
      if (parsed.error) {
        this.bad.set(key, parsed.error);
        box.classList.add("lw-bad");
        box.setAttribute("aria-invalid", "true");
        return;
      }
      this.bad.delete(key);
      box.classList.remove("lw-bad");
      box.removeAttribute("aria-invalid");
      const value = this.values[input.name];
      if (input.dims.length === 2) value[r][c] = parsed.value;
      else if (input.dims.length === 1) value[c] = parsed.value;
      else this.values[input.name] = parsed.value;
    }

    /* After any change: report bad cells (outputs stay, dimmed) or save and recompute. */
    edited() {
      const results = this.el.querySelector(".lw-results");
      if (this.bad.size) {
        results.classList.add("lw-stale");
        const first = this.bad.values().next().value;
        const more = this.bad.size > 1 ? ` (and ${this.bad.size - 1} more cell${this.bad.size > 2 ? "s" : ""})` : "";
        this.setMessage(first + more, "error");
        return;
      }
      const problem = cells.checkValues(this.spec, this.values);
      if (problem) {
        results.classList.add("lw-stale");
        this.setMessage(problem, "error");
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
      try {
        const result = await compute(this.id, this.spec.name, values, (check) => this.showCheck(check, values));
        if (result.error) this.showError(result.error);
        else this.showResult(result);
      } catch (error) {
        this.showError(error.message);
      }
      this.inFlight = false;
      this.el.dispatchEvent(new CustomEvent("layerwise:rendered", { bubbles: true, detail: { ms: performance.now() - sentAt } }));
      if (this.dirty && engine.state === "ready") this.send();
      else if (this.unsaved) this.save();
    }

    /* The deferred gradient check, if the values it checked are still the ones shown. */
    showCheck(check, values) {
      const paragraph = this.el.querySelector(".lw-results .lw-gradcheck");
      if (!paragraph || !check || JSON.stringify(values) !== JSON.stringify(this.values) || this.error) return;
      showCheckIn(paragraph, check);
      if (this.lastResult) this.lastResult.gradcheck = check;
    }

    showError(message) {
      this.error = message;
      this.el.querySelector(".lw-results").classList.add("lw-stale");
      this.setMessage(message, "error");
      this.showEngineState();
    }

    /* ----- outputs ----- */
    showResult(result) {
      this.error = "";
      this.lastResult = result; // read by the browser tests to compare raw values with CPython
      const results = this.el.querySelector(".lw-results");
      // Same blocks and shapes as shown (every edit that does not resize): change texts only, which costs the
      // browser far less style and layout work than a new subtree, so the edit -> updated numbers delay stays short.
      if (!this.updateInPlace(results, result)) results.replaceWith(this.resultsElement(result, readCells(results)));
      if (result.nonfinite.length) {
        this.setMessage(`Not finite: ${result.nonfinite.join(", ")} (an overflow or a division by zero); ` +
                        "those cells show inf or nan.", "warning");
      } else {
        this.setMessage("", "");
      }
      this.showEngineState();
    }

    updateInPlace(results, result) {
      const blocks = orderedBlocks(result);
      const figures = results.querySelectorAll(".lw-output");
      const plots = results.querySelectorAll(".lw-plot");
      const notes = results.querySelectorAll(".lw-note");
      const arith = results.querySelector(".lw-arith");
      const check = results.querySelector(".lw-gradcheck");
      const sameShape = (figure, block) => {
        const rows = figure.querySelectorAll("tbody tr");
        const cells = rowsOf(block.dims, block.cells);
        return rows.length === cells.length && [...rows].every((tr, r) => tr.querySelectorAll("td").length === cells[r].length);
      };
      if (figures.length !== blocks.length || plots.length !== result.plots.length || notes.length !== result.notes.length ||
          !arith !== !result.arithmetic || !check !== !result.gradcheck ||
          blocks.some((block, i) => figures[i].dataset.name !== block.name || !sameShape(figures[i], block))) {
        return false;
      }
      blocks.forEach((block, i) => {
        const figure = figures[i];
        if (block.finite) delete figure.dataset.nonfinite;
        else figure.dataset.nonfinite = "true";
        figure.querySelector(".lw-label").textContent = block.label;
        const rows = rowsOf(block.dims, block.cells);
        figure.querySelectorAll("tbody tr").forEach((tr, r) => tr.querySelectorAll("td").forEach((td, c) => {
          const changed = td.textContent !== rows[r][c];
          td.classList.toggle("lw-changed", changed);
          if (changed) td.textContent = rows[r][c];
        }));
      });
      if (arith) arith.textContent = result.arithmetic;
      notes.forEach((note, i) => { note.textContent = result.notes[i]; });
      if (check) showCheckIn(check, result.gradcheck);
      plots.forEach((figure, i) => {
        figure.querySelector("figcaption").textContent = result.plots[i].title;
        figure.querySelector("svg").remove();
        figure.insertAdjacentHTML("beforeend", result.plots[i].svg); // made by engine/examples/svg.py, labels escaped
      });
      results.classList.remove("lw-stale");
      return true;
    }

    /* A new output half, for a first result of another shape; `before` (readCells) marks the changed cells. */
    resultsElement(result, before) {
      const results = element("div", "lw-results");
      for (const [group, title] of Object.entries(GROUP_TITLES)) {
        const blocks = result.blocks.filter((b) => b.group === group);
        if (!blocks.length) continue;
        const section = results.appendChild(element("section", "lw-group"));
        section.dataset.group = group;
        section.append(element("h4", "", title));
        const row = section.appendChild(element("div", "lw-row"));
        for (const block of blocks) row.append(this.outputFigure(block, before.get(block.name) || []));
      }
      if (result.arithmetic) results.append(element("p", "lw-arith", result.arithmetic));
      for (const note of result.notes) results.append(element("p", "lw-note", note));
      if (result.gradcheck) showCheckIn(results.appendChild(element("p", "lw-gradcheck")), result.gradcheck);
      for (const plot of result.plots) {
        const figure = results.appendChild(element("figure", "lw-plot"));
        figure.append(element("figcaption", "", plot.title));
        figure.insertAdjacentHTML("beforeend", plot.svg); // made by engine/examples/svg.py from numbers and escaped labels
      }
      return results;
    }

    outputFigure(block, before) {
      const figure = element("figure", "lw-matrix lw-output");
      figure.dataset.name = block.name;
      if (!block.finite) figure.dataset.nonfinite = "true";
      const caption = figure.appendChild(element("figcaption"));
      caption.append(element("code", "", block.name), " ", element("span", "lw-shape", cells.shapeText(block.shape)),
                     " ", element("span", "lw-label", block.label));
      figure.append(this.grid(block.dims, block.cells, (r, c, text) => {
        const td = element("td", "", text);
        if (before.length && (before[r] || [])[c] !== text) td.className = "lw-changed"; // new cells count too
        return td;
      }));
      return figure;
    }

    /* ----- messages, keys, paste ----- */
    setMessage(text, level) {
      this.messageEl.textContent = text;
      this.messageEl.dataset.level = level;
    }

    onKeydown(event) {
      const box = event.target;
      if (!box.classList || !box.classList.contains("lw-cell")) return;
      const r = Number(box.dataset.row);
      const c = Number(box.dataset.col);
      const atStart = box.selectionStart === 0 && box.selectionEnd === 0;
      const atEnd = box.selectionStart === box.value.length;
      let target = null;
      if (event.key === "ArrowUp") target = [r - 1, c];
      else if (event.key === "ArrowDown" || (event.key === "Enter" && !event.shiftKey)) target = [r + 1, c];
      else if (event.key === "Enter") target = [r - 1, c];
      else if (event.key === "ArrowLeft" && atStart) target = [r, c - 1];
      else if (event.key === "ArrowRight" && atEnd) target = [r, c + 1];
      if (!target) return;
      const next = this.cell(box.dataset.input, target[0], target[1]);
      if (next) {
        event.preventDefault();
        next.focus();
        next.select();
      } else if (event.key === "Enter") {
        event.preventDefault();
      }
    }

    cell(name, r, c) {
      return this.el.querySelector(`.lw-cell[data-input="${CSS.escape(name)}"][data-row="${r}"][data-col="${c}"]`);
    }

    onPaste(event) {
      const box = event.target;
      if (!box.classList || !box.classList.contains("lw-cell")) return;
      const text = (event.clipboardData || window.clipboardData).getData("text");
      if (text.trim() !== "" && !/[\t\n,; ]/.test(text.trim())) return; // one value: the browser pastes it
      event.preventDefault();
      this.pasteBlock(box, text);
    }

    /* Fill cells from the focused one; grow linked dimensions when the block needs more room. */
    pasteBlock(box, text) {
      const block = cells.parseBlock(text);
      if (block.error) { this.setMessage(block.error, "error"); return; }
      const input = this.input(box.dataset.input);
      const r0 = Number(box.dataset.row);
      const c0 = Number(box.dataset.col);
      const rows = input.dims.length === 2 ? block.rows : [block.rows.flat()];
      if (input.dims.length < 2 && block.rows.length > 1 && block.rows.some((row) => row.length > 1)) {
        this.setMessage(`${input.name} is a list, but the pasted block has ${block.rows.length} lines of ` +
                        `${block.rows[0].length} values`, "error");
        return;
      }
      if (input.dims.length === 0 && rows[0].length > 1) {
        this.setMessage(`${input.name} is a single number, but ${rows[0].length} values were pasted`, "error");
        return;
      }
      const shape = cells.shapeOf(this.values[input.name], input.dims.length);
      const need = input.dims.length === 2 ? [r0 + rows.length, c0 + rows[0].length] : [c0 + rows[0].length];
      for (let axis = 0; axis < need.length; axis++) {
        const dim = this.spec.dims[input.dims[axis]];
        if (need[axis] > shape[axis] && (!dim.resizable || need[axis] > dim.max)) {
          const word = input.dims.length === 2 ? ["rows", "columns"][axis] : "entries";
          this.setMessage(`the pasted block needs ${need[axis]} ${word} in ${input.name} from this cell, but ` +
                          `${input.name} ${dim.resizable ? `allows at most ${dim.max}` : `has a fixed ${shape[axis]}`} ` +
                          `(${input.dims[axis]})`, "error");
          return;
        }
      }
      for (let axis = 0; axis < need.length; axis++) {
        for (let n = shape[axis]; n < need[axis]; n++) this.resizeQuietly(input.dims[axis]);
      }
      if (need.some((n, axis) => n > shape[axis])) this.renderInputs();
      rows.forEach((row, dr) => row.forEach((text, dc) => {
        const target = input.dims.length === 2 ? this.cell(input.name, r0 + dr, c0 + dc) : this.cell(input.name, 0, c0 + dc);
        target.value = text;
        this.readCell(target);
      }));
      this.edited();
    }

    resizeQuietly(symbol) {
      const render = this.renderInputs;
      this.renderInputs = () => {};
      const edited = this.edited;
      this.edited = () => {};
      try { this.resize(symbol, 1); } finally { this.renderInputs = render; this.edited = edited; }
    }

    /* ----- state in the URL and localStorage ----- */
    isAtStart() { return JSON.stringify(this.values) === JSON.stringify(this.start); }

    save() {
      this.unsaved = false;
      try {
        if (this.isAtStart()) localStorage.removeItem(storageKey(this.id));
        else localStorage.setItem(storageKey(this.id), JSON.stringify(this.values));
      } catch (e) { /* storage full or disabled: the URL still holds the state */ }
      updateFragment();
    }

    reset() {
      this.values = clone(this.start);
      this.dirty = false;
      this.error = "";
      this.renderInputs();
      const results = this.startResults.cloneNode(true);
      this.el.querySelector(".lw-results").replaceWith(results);
      this.setMessage("", "");
      this.save();
      this.showEngineState();
    }

    async copyLink() {
      try {
        await navigator.clipboard.writeText(location.href);
        this.setMessage("Link copied: it reproduces this example exactly.", "info");
      } catch (e) {
        this.setMessage(`Copy this link: ${location.href}`, "info");
      }
    }
  }

  function updateFragment() {
    const edited = {};
    for (const widget of pageWidgets) if (!widget.isAtStart()) edited[widget.id] = widget.values;
    const fragment = cells.writeFragment(edited);
    const keep = location.hash && !location.hash.startsWith("#lw-") ? location.hash : "";
    history.replaceState(history.state, "", location.pathname + location.search + (fragment ? "#" + fragment : keep));
  }

  /* ---------- page set-up (every instant navigation) ---------- */
  let pageWidgets = [];
  let observer = null;

  function initPage() {
    const found = [...document.querySelectorAll(".lw-widget")];
    if (found.length && found.every((el) => el.dataset.lwReady)) return; // this document is already set up
    if (observer) observer.disconnect();
    for (const el of found) el.dataset.lwReady = "true";
    pageWidgets = found.map((el) => new Widget(el));
    if (!pageWidgets.length) return;
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        startEngine();
      }
    });
    for (const widget of pageWidgets) observer.observe(widget.el);
    // A widget already on screen, or the one the link points to (the browser scrolls there later), starts the
    // engine now rather than when the observer first reports it.
    const target = decodeURIComponent(location.hash.slice(1));
    if (pageWidgets.some(({ el }) => el.id === target || el.querySelector(`[id="${CSS.escape(target)}"]`)) ||
        pageWidgets.some(({ el }) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })) {
      startEngine();
    }
    showNotice();
  }

  window.Layerwise.engine = engine;
  window.Layerwise.widgets = () => pageWidgets;
  // Set up now (this script comes after every widget in the page), so the engine starts before the rest of the
  // page's scripts run; then again on each instant navigation, which mkdocs-material announces on document$.
  initPage();
  if (window.document$) window.document$.subscribe(initPage);
})();
