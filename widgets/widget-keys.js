/* Matrices from the keyboard (the WAI-ARIA Authoring Practices grid pattern): each input matrix is one tab stop
 * (roving tabindex) with the arrow keys moving inside it, and each input's resize buttons are one tab stop too
 * (a toolbar), so a widget is a handful of stops.
 *
 * A cell reached from the keyboard, by a click or by a tap is in navigation mode: its text is selected, typing
 * replaces it (as in a spreadsheet), and every arrow key moves to the next cell at once. A second click or tap on the
 * focused cell, F2, Home or End puts the caret in the text (edit mode): Left/Right then move the caret and leave the
 * cell only at the text's start or end. Enter moves down, Shift-Enter up; Escape puts back the value the cell had when
 * it was entered. */

export const GRID_HELP = "Arrow keys move between cells; type to replace a value; F2 puts the caret in the text; " +
                         "Escape restores the value the cell had; Tab leaves the matrix.";
// The same keys in a line, for the tip shown on screen (widget-help.js), which covers the page while it is shown.
export const GRID_KEYS = "Arrows move · type to replace · F2 edits in place · Esc restores · Tab leaves the matrix";

const editing = new WeakSet(); // cells whose caret the reader placed
const arriving = new WeakSet(); // cells a press is focusing: their text is selected when the press ends
const placing = new WeakSet(); // focused cells pressed again: their caret is placed when the press ends

/* A mouse button or a finger goes down on `box`: a press on another cell focuses it, a press on the focused cell
 * puts it in edit mode. */
export function onCellPointerDown(box) {
  const focused = box === document.activeElement;
  if (focused) editing.add(box);
  (focused ? placing : arriving).add(box);
  (focused ? arriving : placing).delete(box);
}

/* The press ended on `box` (a click, or a tap's click). One that focused it selects the whole text, as arriving by
 * keyboard does, unless the reader dragged across part of it; a second one leaves a caret: the browser put it where
 * the mouse was, but a tap on a selection keeps the selection, so the caret then goes to the end. A double click
 * (detail 2) selects a word, as usual. setSelectionRange, not select(): iOS ignores select() on a text input. */
export function onCellClick(box, clicks) {
  const whole = box.selectionStart === 0 && box.selectionEnd === box.value.length;
  if (arriving.delete(box)) {
    if (box.selectionStart === box.selectionEnd) box.setSelectionRange(0, box.value.length);
  } else if (placing.delete(box)) {
    if (whole && clicks === 1) box.setSelectionRange(box.value.length, box.value.length);
  }
}

/* `box` becomes its matrix's one tab stop; its value is kept for Escape. */
export function onCellFocus(box) {
  for (const other of box.closest("table").querySelectorAll(".lw-cell")) other.tabIndex = other === box ? 0 : -1;
  box.dataset.before = box.value;
}

export function onCellBlur(box) {
  for (const set of [editing, arriving, placing]) set.delete(box);
}

/* The first cell of each matrix is its tab stop until the reader moves. */
export function makeRoving(table) {
  table.querySelectorAll(".lw-cell").forEach((box, i) => { box.tabIndex = i === 0 ? 0 : -1; });
}

/* A keydown on cell `box`: `cellAt(r, c)` finds a cell of the same matrix; `restored(box)` is told after Escape
 * changed the text back. */
export function onCellKey(event, box, cellAt, restored) {
  const r = Number(box.dataset.row);
  const c = Number(box.dataset.col);
  const whole = box.selectionStart === 0 && box.selectionEnd === box.value.length;
  const navigating = !editing.has(box) || whole;
  let target = null;
  switch (event.key) {
    case "ArrowUp": target = [r - 1, c]; break;
    case "ArrowDown": target = [r + 1, c]; break;
    case "Enter": target = event.shiftKey ? [r - 1, c] : [r + 1, c]; break;
    case "ArrowLeft": if (navigating || (box.selectionStart === 0 && box.selectionEnd === 0)) target = [r, c - 1]; break;
    case "ArrowRight": if (navigating || box.selectionStart === box.value.length) target = [r, c + 1]; break;
    case "F2":
      event.preventDefault();
      box.setSelectionRange(box.value.length, box.value.length);
      editing.add(box);
      return;
    case "Home": case "End":
      editing.add(box); // the browser moves the caret
      return;
    case "Escape":
      event.preventDefault();
      if (box.value !== box.dataset.before) {
        box.value = box.dataset.before;
        restored(box);
      }
      editing.delete(box);
      box.select();
      return;
    default:
      return;
  }
  if (!target) return;
  const next = cellAt(target[0], target[1]);
  if (next) {
    event.preventDefault();
    next.focus();
    next.select();
  } else if (event.key === "Enter" || navigating) {
    event.preventDefault(); // at the matrix's edge: stay, text still selected
  }
}

/* ---------- the resize buttons of one input: a toolbar ---------- */

export function makeToolbar(bar, label) {
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", label);
  const buttons = [...bar.querySelectorAll("button")];
  const first = buttons.find((b) => !b.disabled) || buttons[0];
  for (const button of buttons) button.tabIndex = button === first ? 0 : -1;
}

export function onToolbarFocus(button) {
  for (const other of button.parentElement.querySelectorAll("button")) other.tabIndex = other === button ? 0 : -1;
}

export function onToolbarKey(event, button) {
  const buttons = [...button.parentElement.querySelectorAll("button")].filter((b) => !b.disabled);
  const at = buttons.indexOf(button);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined || !buttons[to]) return;
  event.preventDefault();
  buttons[to].focus();
}
