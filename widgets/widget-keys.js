/* Matrices from the keyboard (the WAI-ARIA Authoring Practices grid pattern): each input matrix is one tab stop
 * (roving tabindex) with the arrow keys moving inside it, and each input's resize buttons are one tab stop too
 * (a toolbar), so a widget is a handful of stops.
 *
 * A cell reached from the keyboard is in navigation mode: its text is selected, typing replaces it, and every arrow
 * key moves to the next cell at once. A click, F2, Home or End puts the caret in the text (edit mode): Left/Right
 * then move the caret and leave the cell only at the text's start or end. Enter moves down, Shift-Enter up; Escape
 * puts back the value the cell had when it was entered. */

export const GRID_HELP = "Arrow keys move between cells; type to replace a value; F2 puts the caret in the text; " +
                         "Escape restores the value the cell had; Tab leaves the matrix.";

const editing = new WeakSet(); // cells whose caret the reader placed

export function onCellPointerDown(box) {
  editing.add(box);
}

/* `box` becomes its matrix's one tab stop; its value is kept for Escape. */
export function onCellFocus(box) {
  for (const other of box.closest("table").querySelectorAll(".lw-cell")) other.tabIndex = other === box ? 0 : -1;
  box.dataset.before = box.value;
}

export function onCellBlur(box) {
  editing.delete(box);
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
