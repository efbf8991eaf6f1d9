/* Matrices from the keyboard (the WAI-ARIA Authoring Practices grid pattern): each input matrix is one tab stop
 * (roving tabindex) with the arrow keys moving inside it, and each input's resize buttons are one tab stop too
 * (a toolbar), so a widget is a handful of stops.
 *
 * A cell reached from the keyboard, by a click or by a tap is in navigation mode: its text is selected, typing
 * replaces it (as in a spreadsheet), and every arrow key moves to the next cell at once. Enter moves down, Shift-Enter
 * up; at the matrix's edge (a last row, a single number) Enter stays and selects the value again, so the next try
 * replaces it too. A click or a tap on a cell whose whole value is selected selects it again, as the first one did;
 * only one while the reader is editing (a caret shown after typing, F2, Home or End) places the caret, and Left/Right
 * then move the caret and leave the cell only at the text's start or end. Escape puts back the value the cell had
 * when it was entered. */

export const GRID_HELP = "Arrow keys move between cells; type to replace a value; F2 puts the caret in the text; " +
                         "Escape restores the value the cell had; Tab leaves the matrix.";

const editing = new WeakSet(); // cells whose caret the reader placed
const arriving = new WeakSet(); // cells a press selects: their text is selected when the press ends

function wholeSelected(box) {
  return box.selectionStart === 0 && box.selectionEnd === box.value.length;
}

/* Navigation mode again: the value selected, ready to be replaced. setSelectionRange, not select(): iOS ignores
 * select() on a text input. */
function selectValue(box) {
  editing.delete(box);
  box.setSelectionRange(0, box.value.length);
}

/* A mouse button or a finger goes down on `box` (`event`, before the browser moves the caret): a press on a cell
 * being edited (its caret shown) places the caret; a press on the focused cell whose value is selected changes
 * nothing (Chromium would collapse the selection after the click); any other press selects the value when it ends. */
export function onCellPointerDown(box, event) {
  if (box !== document.activeElement) {
    arriving.add(box);
  } else if (wholeSelected(box)) {
    event.preventDefault();
  } else {
    editing.add(box);
    arriving.delete(box);
  }
}

/* The press ended on `box` (a click, or a tap's click). One that selects leaves the whole value selected, unless the
 * reader dragged across part of it or double-clicked a word (detail 2, as usual). */
export function onCellClick(box) {
  if (arriving.delete(box) && box.selectionStart === box.selectionEnd) selectValue(box);
}

/* `box` becomes its matrix's one tab stop; its value is kept for Escape. */
export function onCellFocus(box) {
  for (const other of box.closest("table").querySelectorAll(".lw-cell")) other.tabIndex = other === box ? 0 : -1;
  box.dataset.before = box.value;
}

export function onCellBlur(box) {
  editing.delete(box);
  arriving.delete(box);
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
  const navigating = !editing.has(box) || wholeSelected(box);
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
      selectValue(box);
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
    event.preventDefault(); // at the matrix's edge: stay, the value selected for the next try
    selectValue(box);
  }
}

/* A keydown in a text input's field: the browser's own keys, and Escape puts back the text it had when entered. */
export function onTextKey(event, box, restored) {
  if (event.key !== "Escape" || box.value === box.dataset.before) return;
  event.preventDefault();
  box.value = box.dataset.before;
  restored(box);
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
