/* What a run shows under an exercise, built from engine.exercises.grade's result with textContent only (the LAB
 * figure, an SVG from the practice worker, is the one markup inserted, after figure.js's allowlist). A failure shows its one sentence, the
 * small input it used, expected and got as two aligned matrices with the wrong entries boxed, and the hint; an
 * exception in the learner's code shows its type, message and line in their code. */

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/* Text in which `backticks` mark code, as the exercises write their messages and hints. */
export function withCode(tag, className, text) {
  const node = element(tag, className);
  String(text).split("`").forEach((part, i) => {
    if (part) node.append(i % 2 ? element("code", "", part) : document.createTextNode(part));
  });
  return node;
}

function matrix({ name, cells }, wrong, role) {
  const figure = element("figure", "lw-matrix lw-feedback__matrix");
  figure.dataset.role = role;
  const caption = element("figcaption");
  caption.append(element("code", "", name), document.createTextNode(role === "input" ? "" : ` (${role})`));
  const table = element("table", "lw-grid");
  const body = element("tbody");
  cells.forEach((row, r) => {
    const tr = element("tr");
    row.forEach((text, c) => {
      const td = element("td", "", text);
      if (wrong && wrong[r] && wrong[r][c]) {
        td.className = "lw-wrong"; // boxed and bold in practice.css; screen readers hear the word
        td.append(element("span", "lw-visually-hidden", " (differs)"));
      }
      tr.append(td);
    });
    body.append(tr);
  });
  table.append(body);
  figure.append(caption, table);
  return figure;
}

function checklist(checks) {
  const list = element("ul", "lw-feedback__checks");
  for (const check of checks) {
    const item = withCode("li", "", `${check.passed ? "✓" : "✗"} ${check.name}`);
    item.dataset.passed = String(check.passed);
    list.append(item);
  }
  return list;
}

function failureParts(failure, error) {
  const parts = [withCode("p", "lw-feedback__message", failure.message)];
  if (error) {
    parts.push(withCode("p", "lw-feedback__error", `${error.type}: ${error.message}`));
    if (error.line) {
      const where = element("p", "lw-feedback__line", `Line ${error.line} of your code: `);
      where.append(element("code", "", error.code || ""));
      parts.push(where);
    }
  }
  if (failure.inputs && failure.inputs.length) {
    const inputs = element("div", "lw-feedback__inputs");
    inputs.append(element("p", "lw-feedback__label", "The input it used:"));
    const row = element("div", "lw-row");
    row.append(...failure.inputs.map((input) => matrix(input, null, "input")));
    inputs.append(row);
    parts.push(inputs);
  }
  if (failure.expected || failure.got) {
    const row = element("div", "lw-row lw-feedback__compare");
    if (failure.expected) row.append(matrix(failure.expected, failure.wrong, "expected"));
    if (failure.got) row.append(matrix(failure.got, failure.wrong, "got"));
    parts.push(row);
    if (failure.wrong) parts.push(element("p", "lw-feedback__legend",
      "Entries that differ are boxed with a dashed border and set in bold, in both matrices."));
  }
  if (failure.hint) parts.push(withCode("p", "lw-feedback__hint", `Hint: ${failure.hint}`));
  return parts;
}

/* figure.js with DOMPurify, bundled at build time; loaded by the first figure to show. */
let sanitizer = null;
function loadSanitizer() {
  sanitizer = sanitizer || import(new URL("figure.bundle.js", import.meta.url).href);
  return sanitizer;
}

/* The figure's drawing in `figure`, once the sanitizer has loaded (a later run may have replaced it meanwhile). */
function drawInto(figure, svgText) {
  loadSanitizer().then(({ drawingOnly }) => drawingOnly(svgText)).catch(() => null).then((svg) => {
    figure.replaceChildren(svg || element("p", "", "The figure could not be drawn."));
  });
}

/* Replace `container`'s content with the result of a run. */
export function showResult(container, result) {
  const parts = [];
  if (result.passed) {
    parts.push(element("p", "lw-feedback__message", `Passed: all ${result.checks.length} checks.`));
  } else if (result.failure) {
    parts.push(...failureParts(result.failure, result.error));
  }
  parts.push(checklist(result.checks));
  if (result.output) {
    parts.push(element("p", "lw-feedback__label", "Your code printed:"), element("pre", "lw-feedback__output", result.output));
  }
  if (result.figure) {
    const figure = element("figure", "lw-feedback__figure");
    drawInto(figure, result.figure);
    parts.push(figure);
  }
  container.replaceChildren(...parts);
  container.dataset.passed = String(result.passed);
}
