/* The code editor on the page: CodeMirror 6, bundled at build time into codemirror.bundle.js and downloaded only
 * when a page has an exercise (the first call here). */
let bundle = null;

function loadBundle() {
  bundle = bundle || import(new URL("codemirror.bundle.js", import.meta.url).href);
  return bundle;
}

/* An editor in place of `parent`'s content: {getCode(), setCode(text), undo(), focus(), view}. */
export async function mountEditor(parent, options) {
  const { createEditor } = await loadBundle();
  parent.replaceChildren();
  return createEditor(parent, options);
}

/* Read-only code in the editor's highlighting, in `parent`. */
export async function mountCode(parent, options) {
  const { showCode } = await loadBundle();
  parent.replaceChildren();
  return showCode(parent, options);
}
