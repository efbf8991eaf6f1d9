/* What one widget's inputs hold: the numbers, the cells whose text is not a number, and the starting values.
 * No DOM: the widget reads cell text into it, asks it what is wrong, and renders from it. */
import * as cells from "./cells.js";

export function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

export class InputState {
  constructor(spec, start) {
    this.spec = spec;
    this.start = start;
    this.values = clone(start);
    this.bad = new Map(); // "X:r:c" -> {where: the cell's name, error}, for cells whose text is not a valid number
  }

  input(name) {
    return this.spec.inputs.find((i) => i.name === name);
  }

  /* Take one cell's text: store its number, or remember why it is not one. Returns the error or null. */
  readCell(name, r, c, text) {
    const input = this.input(name);
    const key = `${name}:${r}:${c}`;
    const where = cells.cellName(name, input.dims.map((symbol) => this.spec.dims[symbol].prefix), r, c);
    const parsed = input.text ? cells.parseText(text, where, input.text)
      : cells.parseCell(text, where, input.integer, cells.boundsIn(input, this.values));
    if (parsed.error) {
      this.bad.set(key, { where, error: parsed.error });
      return parsed.error;
    }
    this.bad.delete(key);
    const value = this.values[name];
    if (input.dims.length === 2) value[r][c] = parsed.value;
    else if (input.dims.length === 1) value[c] = parsed.value;
    else this.values[name] = parsed.value;
    return null;
  }

  /* The message to show when the values cannot be computed (bad cells first, then shape links), or null: the first
   * bad cell's message, then the name of every other bad cell ("...; also wrong: batch_size, lr"). */
  problem() {
    if (this.bad.size) {
      const [first, ...others] = this.bad.values();
      return first.error + (others.length ? `; also wrong: ${others.map((bad) => bad.where).join(", ")}` : "");
    }
    return cells.checkValues(this.spec, this.values);
  }

  /* The inputs whose bound is the value of input `name` (their cells are read again when it changes). */
  boundedBy(name) {
    return this.spec.inputs.filter((input) => input.bounds && input.bounds[1] === name).map((input) => input.name);
  }

  shapeOf(name) {
    return cells.shapeOf(this.values[name], this.input(name).dims.length);
  }

  /* Grow or shrink dimension `symbol` by one in every input that carries it (new entries are 0). */
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
  }

  /* Values restored from a link or storage; returns why they were refused, or null when they were taken. */
  adopt(values) {
    const problem = cells.checkValues(this.spec, values);
    if (!problem) this.values = values;
    return problem;
  }

  reset() {
    this.values = clone(this.start);
    this.bad.clear();
  }

  isAtStart() {
    return JSON.stringify(this.values) === JSON.stringify(this.start);
  }
}

/* Where a pasted block goes from cell (r0, c0) of input `name`: {error}, or {grow: dimension symbols to add one
 * to, in order, and writes: [row, col, text] cells}. Nothing is changed here. */
export function planPaste(spec, values, name, r0, c0, text) {
  const block = cells.parseBlock(text);
  if (block.error) return { error: block.error };
  const input = spec.inputs.find((i) => i.name === name);
  const rows = input.dims.length === 2 ? block.rows : [block.rows.flat()];
  if (input.dims.length < 2 && block.rows.length > 1 && block.rows.some((row) => row.length > 1)) {
    return { error: `${name} is a list, but the pasted block has ${block.rows.length} lines of ` +
                    `${block.rows[0].length} values` };
  }
  if (input.dims.length === 0 && rows[0].length > 1) {
    return { error: `${name} is a single number, but ${rows[0].length} values were pasted` };
  }
  const shape = cells.shapeOf(values[name], input.dims.length);
  const need = input.dims.length === 2 ? [r0 + rows.length, c0 + rows[0].length] : [c0 + rows[0].length];
  const grow = [];
  for (let axis = 0; axis < need.length; axis++) {
    const dim = spec.dims[input.dims[axis]];
    if (need[axis] > shape[axis] && (!dim.resizable || need[axis] > dim.max)) {
      const word = input.dims.length === 2 ? ["rows", "columns"][axis] : "entries";
      return { error: `the pasted block needs ${need[axis]} ${word} in ${name} from this cell, but ` +
                      `${name} ${dim.resizable ? `allows at most ${dim.max}` : `has a fixed ${shape[axis]}`} ` +
                      `(${input.dims[axis]})` };
    }
    for (let n = shape[axis]; n < need[axis]; n++) grow.push(input.dims[axis]);
  }
  const writes = rows.flatMap((row, dr) => row.map((text, dc) =>
    input.dims.length === 2 ? [r0 + dr, c0 + dc, text] : [0, c0 + dc, text]));
  return { grow, writes };
}
