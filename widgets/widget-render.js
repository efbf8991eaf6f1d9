/* Drawing a widget from data: input grids, resize buttons, and the output half from the worker's JSON, in the
 * markup layerwise_build/livewidgets/render.py pre-renders (`lw-*` classes). Texts go in with textContent only; the
 * Python-made SVG of a plot (engine/examples/svg.py, labels escaped) is the one markup inserted. */
import * as cells from "./cells.js";
import { makeRoving, makeToolbar } from "./widget-keys.js";

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/* Write a text only when it differs: an unchanged write still replaces the text node, and the browser then styles,
 * lays out and paints it again in the edit's frame. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/* A shape as a caption shows it: none for a single number. */
function captionShape(shape) {
  return shape.length ? cells.shapeText(shape) : "";
}

/* The rows of a grid: a matrix as is, a list as one row, a number as one cell. */
function rowsOf(dims, value) {
  return dims.length === 2 ? value : [dims.length === 1 ? value : [value]];
}

function header(scope, text) {
  const th = element("th", "", text);
  th.scope = scope;
  return th;
}

/* The header with no visible text (a matrix's corner, a list's row start) is named for screen readers by the
 * matrix's name, so no header is empty. */
function namedCorner(scope, name) {
  const th = header(scope);
  th.className = "lw-corner";
  th.append(element("span", "lw-sr-only", name));
  return th;
}

/* A table with column headers from the last dim's prefix and row headers from the first (for matrices). */
function grid(spec, name, dims, value, makeCell) {
  const table = element("table", "lw-grid");
  const matrix = rowsOf(dims, value);
  if (dims.length) {
    const head = element("tr");
    head.append(namedCorner("col", name));
    const prefix = spec.dims[dims[dims.length - 1]].prefix;
    matrix[0].forEach((_, c) => head.append(header("col", prefix + c)));
    table.appendChild(element("thead")).append(head);
  }
  const body = table.appendChild(element("tbody"));
  matrix.forEach((row, r) => {
    const tr = body.appendChild(element("tr"));
    if (dims.length === 2) tr.append(header("row", spec.dims[dims[0]].prefix + r));
    else if (dims.length) tr.append(namedCorner("row", name));
    row.forEach((v, c) => tr.append(makeCell(r, c, v)));
  });
  return table;
}

/* A cell's name with the grid's own 0-based headers: "x t0, i1", "gamma i2", "p". */
function cellLabel(spec, input, r, c) {
  const [rows, cols] = input.dims.length === 2 ? input.dims : [null, input.dims[0]];
  if (!cols) return input.name;
  const col = spec.dims[cols].prefix + c;
  return rows ? `${input.name} ${spec.dims[rows].prefix}${r}, ${col}` : `${input.name} ${col}`;
}

/* ---------- inputs ---------- */

/* Fill an input's figure with editable cells for `value`, and its shape; `helpId` names the keyboard help. */
export function renderInput(figure, spec, input, value, helpId) {
  const shape = captionShape(cells.shapeOf(value, input.dims.length));
  figure.querySelector(".lw-shape").textContent = shape;
  const table = grid(spec, input.name, input.dims, value, (r, c, v) => {
    const td = element("td");
    const box = element("input", input.text ? "lw-cell lw-text" : "lw-cell");
    box.type = "text";
    box.inputMode = input.text ? "text" : "decimal";
    box.autocomplete = "off";
    box.spellcheck = false;
    box.value = String(v);
    box.dataset.input = input.name;
    box.dataset.row = r;
    box.dataset.col = c;
    box.setAttribute("aria-label", cellLabel(spec, input, r, c));
    td.append(box);
    return td;
  });
  table.setAttribute("role", "grid");
  table.setAttribute("aria-label", `${[input.name, shape].filter(Boolean).join(" ")}, editable`);
  if (!input.text) table.setAttribute("aria-describedby", helpId); // a text field keeps its usual keys
  makeRoving(table);
  figure.querySelector("table").replaceWith(table);
}

/* Mark a cell bad (`error` is its message) or good. A bad cell is described by its own message (a hidden element
 * beside it), so a screen reader says why when the cell is focused. */
export function markCell(box, error) {
  box.classList.toggle("lw-bad", Boolean(error));
  let note = box.nextElementSibling;
  if (!error) {
    box.removeAttribute("aria-invalid");
    box.removeAttribute("aria-describedby");
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = element("span", "lw-cell-note");
    note.id = `lw-note-${++noteCount}`;
    note.hidden = true;
    box.after(note);
  }
  note.textContent = error;
  box.setAttribute("aria-invalid", "true");
  box.setAttribute("aria-describedby", note.id);
}
let noteCount = 0;

/* Flag every matrix of a widget that is wider than its box (it scrolls sideways), so the page can show that. */
export function markScrolling(widget) {
  const figures = [...widget.querySelectorAll(".lw-matrix")];
  // Not rendered yet (far off screen, the site's layerwise.css; the widget itself is then laid out, what it holds is
  // not): reading a size inside would render it all now, for nothing. widget.js measures again when it is rendered.
  // The site's page template says so without drawing anything (Layerwise.notDrawn); elsewhere nothing is skipped.
  const notDrawn = window.Layerwise && window.Layerwise.notDrawn;
  if (figures.length && notDrawn && notDrawn(figures[0])) return;
  // all read before any is marked: a mark between two reads would lay the page out again for the second
  const scrolls = figures.map((figure) => figure.scrollWidth > figure.clientWidth + 1);
  figures.forEach((figure, i) => {
    figure.toggleAttribute("data-scrolls", scrolls[i]);
    // a scrolling output is a tab stop, so the keyboard can scroll it (an input scrolls with its focused cell)
    if (!figure.classList.contains("lw-output")) return;
    if (scrolls[i]) figure.tabIndex = 0;
    else figure.removeAttribute("tabindex");
  });
}

/* Lay `bubble` (absolutely positioned in `widget`) over the page just under `figure`, from the left edge of `from`,
 * kept inside the widget. */
export function placeUnder(widget, bubble, figure, from) {
  const box = widget.getBoundingClientRect();
  const left = Math.max(0, Math.min(from.getBoundingClientRect().left - box.left, widget.clientWidth - bubble.offsetWidth));
  bubble.style.left = `${left}px`;
  bubble.style.top = `${figure.getBoundingClientRect().bottom - box.top + 2}px`;
}

/* Lay `bubble` exactly over `target` (at least its box; a longer text grows downwards), inside the widget. */
export function placeOver(widget, bubble, target) {
  const box = widget.getBoundingClientRect(), rect = target.getBoundingClientRect();
  // offsets count from inside the widget's border
  const left = Math.max(0, rect.left - box.left - widget.clientLeft);
  bubble.style.left = `${left}px`;
  bubble.style.top = `${rect.top - box.top - widget.clientTop}px`;
  bubble.style.minWidth = `${Math.min(rect.width, widget.clientWidth - left)}px`;
  bubble.style.minHeight = `${rect.height}px`;
}

/* "+ row" / "− row" (or column, entry) buttons for each resizable dimension; resize(symbol, sign) on click. */
export function renderResizers(figure, spec, input, shape, resize) {
  let box = figure.querySelector(".lw-resize");
  if (!box) box = figure.appendChild(element("div", "lw-resize"));
  box.replaceChildren();
  input.dims.forEach((symbol, axis) => {
    const dim = spec.dims[symbol];
    if (!dim.resizable) return;
    const word = input.dims.length === 2 ? ["row", "column"][axis] : "entry";
    for (const [sign, label] of [[1, "+"], [-1, "−"]]) {
      const button = element("button", "lw-button lw-size", `${label} ${word}`);
      button.type = "button";
      const article = /^[aeiou]/.test(word) ? "an" : "a"; // "an entry", "a row"
      button.title = `${sign > 0 ? "Add" : "Remove"} ${article} ${word} of ${input.name} (${symbol}); linked inputs follow`;
      button.disabled = sign > 0 ? shape[axis] >= dim.max : shape[axis] <= dim.min;
      button.addEventListener("click", () => resize(symbol, sign));
      box.append(button);
    }
  });
  if (box.children.length) makeToolbar(box, `Size of ${input.name}`);
}

/* ---------- outputs ---------- */

/* Output blocks in the order the widget shows them: by group, then as the kind listed them. */
function orderedBlocks(spec, result) {
  return Object.keys(spec.groups).flatMap((group) => result.blocks.filter((b) => b.group === group));
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

export function showCheck(paragraph, check) {
  setText(paragraph, check.text);
  paragraph.dataset.ok = String(check.ok);
  paragraph.toggleAttribute("data-pending", Boolean(check.pending));
}

/* Show `result` in the output half `results`, marking the cells whose text changed (`lw-changed`); returns
 * {block name: ["r:c" of each changed cell]} for the blocks that changed. */
export function renderResult(spec, results, result) {
  const changed = {};
  // Same blocks and shapes as shown (every edit that does not resize): change texts only, which costs the
  // browser far less style and layout work than a new subtree, so the edit -> updated numbers delay stays short.
  if (!updateInPlace(spec, results, result, changed)) results.replaceWith(resultsElement(spec, result, readCells(results), changed));
  return changed;
}

function note(changed, name, r, c) {
  (changed[name] = changed[name] || []).push(`${r}:${c}`);
}

function updateInPlace(spec, results, result, changed) {
  const blocks = orderedBlocks(spec, result);
  const figures = results.querySelectorAll(".lw-output");
  const plots = results.querySelectorAll(".lw-plot");
  const notes = results.querySelectorAll(".lw-note");
  const arith = results.querySelector(".lw-arith");
  const check = results.querySelector(".lw-gradcheck");
  const sameShape = (figure, block) => {
    const rows = figure.querySelectorAll("tbody tr");
    const texts = rowsOf(block.dims, block.cells);
    return rows.length === texts.length && [...rows].every((tr, r) => tr.querySelectorAll("td").length === texts[r].length);
  };
  if (figures.length !== blocks.length || plots.length !== result.plots.length || notes.length !== result.notes.length ||
      !arith !== !result.arithmetic || !check !== !result.gradcheck ||
      blocks.some((block, i) => figures[i].dataset.name !== block.name || !sameShape(figures[i], block))) {
    return false;
  }
  blocks.forEach((block, i) => {
    const figure = figures[i];
    figure.toggleAttribute("data-nonfinite", !block.finite);
    setText(figure.querySelector(".lw-label"), block.label);
    const rows = rowsOf(block.dims, block.cells);
    figure.querySelectorAll("tbody tr").forEach((tr, r) => tr.querySelectorAll("td").forEach((td, c) => {
      const differs = td.textContent !== rows[r][c];
      td.classList.toggle("lw-changed", differs);
      if (differs) {
        td.textContent = rows[r][c];
        note(changed, block.name, r, c);
      }
    }));
  });
  if (arith) setText(arith, result.arithmetic);
  notes.forEach((note, i) => setText(note, result.notes[i]));
  if (check) showCheck(check, result.gradcheck);
  plots.forEach((figure, i) => {
    figure.querySelector("figcaption").textContent = result.plots[i].title;
    figure.querySelector("svg").remove();
    figure.insertAdjacentHTML("beforeend", result.plots[i].svg); // made by engine/examples/svg.py, labels escaped
  });
  results.classList.remove("lw-stale");
  return true;
}

/* A new output half, for a first result of another shape; `before` (readCells) marks the changed cells. */
function resultsElement(spec, result, before, changed) {
  const results = element("div", "lw-results");
  for (const [group, title] of Object.entries(spec.groups)) {
    const blocks = result.blocks.filter((b) => b.group === group);
    if (!blocks.length) continue;
    const section = results.appendChild(element("section", "lw-group"));
    section.dataset.group = group;
    section.append(element("h3", "", title)); // under the page's h2 (axe: heading-order)
    const row = section.appendChild(element("div", "lw-row"));
    for (const block of blocks) row.append(outputFigure(spec, block, before.get(block.name) || [], changed));
  }
  if (result.arithmetic) results.append(element("p", "lw-arith", result.arithmetic));
  for (const note of result.notes) results.append(element("p", "lw-note", note));
  if (result.gradcheck) showCheck(results.appendChild(element("p", "lw-gradcheck")), result.gradcheck);
  for (const plot of result.plots) {
    const figure = results.appendChild(element("figure", "lw-plot"));
    figure.append(element("figcaption", "", plot.title));
    figure.insertAdjacentHTML("beforeend", plot.svg); // made by engine/examples/svg.py from numbers and escaped labels
  }
  return results;
}

function outputFigure(spec, block, before, changed) {
  const figure = element("figure", "lw-matrix lw-output");
  figure.dataset.name = block.name;
  if (!block.finite) figure.dataset.nonfinite = "true";
  const caption = figure.appendChild(element("figcaption"));
  caption.append(element("code", "", block.name), " ", element("span", "lw-shape", captionShape(block.shape)),
                 " ", element("span", "lw-label", block.label));
  figure.append(grid(spec, block.name, block.dims, block.cells, (r, c, text) => {
    const td = element("td", "", text);
    if (before.length && (before[r] || [])[c] !== text) { // new cells count too
      td.className = "lw-changed";
      note(changed, block.name, r, c);
    }
    return td;
  }));
  return figure;
}
