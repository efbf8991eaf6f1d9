/* Moving between the cells of an input grid from the keyboard. Arrow keys move; Left/Right only once the caret
 * is at the text's start or end; Enter moves down, Shift-Enter up. */

/* Handle a keydown on cell `box`; `cellAt(r, c)` finds a cell of the same input. */
export function onCellKey(event, box, cellAt) {
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
  const next = cellAt(target[0], target[1]);
  if (next) {
    event.preventDefault();
    next.focus();
    next.select();
  } else if (event.key === "Enter") {
    event.preventDefault();
  }
}
