/* Reading what a reader typed: pure functions, no DOM, no math on the values (an ES module).
 * Cell text is parsed into numbers here (it never reaches markup or Python source); pasted blocks are split;
 * shapes are checked against the kind's dimension links with the same words the Python side uses. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SHOWN_TEXT = 24; // longer cell text is cut in messages

/* A cell named with the grid's own 0-based headers, as the Python side does: "X[t1, a2]", "b[j0]". `prefixes` are
 * the header prefixes of the input's axes (["t", "a"]). */
export function cellName(name, prefixes, row, col) {
  if (prefixes.length === 2) return `${name}[${prefixes[0]}${row}, ${prefixes[1]}${col}]`;
  if (prefixes.length === 1) return `${name}[${prefixes[0]}${col}]`;
  return name;
}

function quote(text) {
  const cut = text.length > SHOWN_TEXT ? text.slice(0, SHOWN_TEXT) + "…" : text;
  return `'${cut}'`;
}

/* A text input's cell (kind.py's Operand max_length): {value: the text as typed} or {error} in Python's words.
 * Lengths count characters as Python does (code points: an emoji is one, not two UTF-16 units). */
export function parseText(text, where, maxLength) {
  const length = [...String(text)].length;
  if (length === 0) return { error: `${where} is empty` };
  if (length > maxLength) return { error: `${where} has ${length} characters; at most ${maxLength} fit` };
  return { value: String(text) };
}

/* One cell: {value} or {error} naming the cell; `bounds` is the input's inclusive [low, high] or null. */
export function parseCell(text, where, integer, bounds) {
  const trimmed = String(text).trim().replace(/\u2212/g, "-"); // a minus sign copied from a page
  if (trimmed === "") return { error: `${where} is empty` };
  if (!DECIMAL.test(trimmed)) return { error: `${where}: ${quote(trimmed)} is not a number` };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { error: `${where}: ${quote(trimmed)} is too large to be a finite number` };
  if (integer && !Number.isInteger(value)) return { error: `${where}: ${quote(trimmed)} is not a whole number` };
  const outside = outOfBounds(where, value, bounds);
  if (outside) return { error: outside };
  return { value: value === 0 ? 0 : value }; // no -0 sent to Python
}

/* An input's [low, high] with a high that names another input (engine/examples/kind.py: "steps") read from
 * `values`; null for an unbounded input. */
export function boundsIn(input, values) {
  if (!input.bounds) return null;
  const [low, high] = input.bounds;
  return [low, typeof high === "string" ? values[high] : high];
}

/* The Python side's words (engine/examples/kind.py), so a reader sees one message whichever side caught it. */
function outOfBounds(where, value, bounds) {
  if (!bounds || (value >= bounds[0] && value <= bounds[1])) return null;
  return `${where} must be from ${inputText(bounds[0])} to ${inputText(bounds[1])}, got ${inputText(value)}`;
}

/* A number as Python's format_input writes it (fmt.py): its repr, e.g. 0.05, 9e-05, 1e+16, and whole numbers
 * without ".0". Both sides print the shortest digits that read back as the same float; only the switch to
 * exponents and the exponent's form differ between JavaScript and Python. */
function inputText(x) {
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
  if (Math.abs(x) >= 1e-4 && Math.abs(x) < 1e16) return String(x);
  return x.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
}

/* A block copied from a spreadsheet or a page: rows on lines, values split by tabs, commas or spaces. */
export function parseBlock(text) {
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
  if (!lines.length) return { error: "the pasted text is empty" };
  const rows = lines.map((line) => {
    const trimmed = line.trim();
    if (trimmed === "") return [];
    return line.includes("\t") ? line.split("\t").map((s) => s.trim()) : trimmed.split(/[\s,;]+/);
  });
  for (let r = 1; r < rows.length; r++) {
    if (rows[r].length !== rows[0].length) {
      return { error: `the pasted block is ragged: line ${r + 1} has ${count(rows[r].length)} ` +
                      `but line 1 has ${count(rows[0].length)}` };
    }
  }
  return { rows };
}

function count(n) {
  return n === 1 ? "1 value" : `${n} values`;
}

export function shapeText(shape) {
  return "(" + shape.join(", ") + (shape.length === 1 ? ",)" : ")");
}

function axisWord(ndim, axis) {
  if (ndim === 1) return "entries";
  return ndim === 2 ? ["rows", "columns"][axis] : `axis ${axis}`;
}

export function shapeOf(value, ndim) {
  const shape = [];
  for (let i = 0; i < ndim; i++) {
    if (!Array.isArray(value)) return null;
    shape.push(value.length);
    value = value[0];
  }
  return shape;
}

/* Check that every axis sharing a dimension symbol has the same size, within the kind's limits. */
export function checkLinks(spec, shapes) {
  const firstSeen = {};
  for (const input of spec.inputs) {
    const shape = shapes[input.name];
    for (let axis = 0; axis < input.dims.length; axis++) {
      const symbol = input.dims[axis];
      const dim = spec.dims[symbol];
      const size = shape[axis];
      if (size < dim.min || size > dim.max) {
        return `${input.name} has shape ${shapeText(shape)}, but its ${axisWord(shape.length, axis)} ` +
               `(${symbol}) must number between ${dim.min} and ${dim.max}`;
      }
      const seen = firstSeen[symbol];
      if (!seen) { firstSeen[symbol] = { input, axis, shape }; continue; }
      if (seen.shape[seen.axis] !== size) {
        return `${seen.input.name} has shape ${shapeText(seen.shape)} but ${input.name} has shape ` +
               `${shapeText(shape)}: ${axisWord(seen.shape.length, seen.axis)} of ${seen.input.name} must equal ` +
               `${axisWord(shape.length, axis)} of ${input.name} (${symbol})`;
      }
    }
  }
  return null;
}

/* Values restored from a link or localStorage: every input present, rectangular, finite, linked. */
export function checkValues(spec, values) {
  if (!values || typeof values !== "object" || Array.isArray(values)) return "the saved values are not an object";
  const shapes = {};
  for (const input of spec.inputs) {
    const value = values[input.name];
    const ndim = input.dims.length;
    const shape = shapeOf(value, ndim);
    if (value === undefined) return `input ${input.name} is missing`;
    if (input.text) {
      if (typeof value !== "string" || parseText(value, input.name, input.text).error) {
        return `${input.name} is not a text of 1 to ${input.text} characters`;
      }
      shapes[input.name] = [];
      continue;
    }
    const flat = ndim === 0 ? [value] : ndim === 1 ? value : Array.isArray(value) ? value : [];
    const rows = ndim === 2 ? flat : [flat];
    if (!shape || rows.some((row) => !Array.isArray(row) || row.length !== rows[0].length)) {
      return `${input.name} is not a ${ndim === 2 ? "matrix" : "list"} with rows of equal length`;
    }
    for (const row of rows) {
      for (const x of row) {
        if (typeof x !== "number" || !Number.isFinite(x)) return `${input.name} holds a value that is not a finite number`;
        if (input.integer && !Number.isInteger(x)) return `${input.name} holds a value that is not a whole number`;
        if (outOfBounds(input.name, x, boundsIn(input, values))) return `${input.name} holds a value outside its bounds`;
      }
    }
    shapes[input.name] = shape;
  }
  const extra = Object.keys(values).filter((k) => !spec.inputs.some((i) => i.name === k));
  if (extra.length) return `unknown input ${extra[0]}`;
  return checkLinks(spec, shapes);
}

/* The URL fragment holds edited widgets as lw-<id>=<JSON>, joined by '&'. */
export function readFragment(hash) {
  const found = {};
  for (const part of String(hash).replace(/^#/, "").split("&")) {
    const match = /^lw-([\w-]+)=(.*)$/.exec(part);
    if (!match) continue;
    try { found[match[1]] = JSON.parse(decodeURIComponent(match[2])); } catch (e) { found[match[1]] = null; }
  }
  return found;
}

export function writeFragment(edited) {
  return Object.entries(edited)
    .map(([id, values]) => `lw-${id}=${encodeURIComponent(JSON.stringify(values))}`)
    .join("&");
}

