/* The code editor, built from CodeMirror 6's npm packages into one bundle at site-build time
 * (scripts/practice/bundle.py): only what is imported here ships. Colours come from mkdocs-material's own code
 * palette (CSS variables in widgets/practice/practice.css), so the editor follows the light and dark schemes. */
import { EditorState, RangeSetBuilder } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory, undo } from "@codemirror/commands";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { pythonLanguage } from "@codemirror/lang-python";
import { classHighlighter } from "@lezer/highlight";

/* A wrapped line goes on under its own indentation plus a hanging 2ch, not at column 0: each visible line gets its
 * indentation in columns as --lw-indent, which practice.css turns into padding-left and a negative text-indent. */
function indentColumns(text, tabSize) {
  let columns = 0;
  for (const char of text) {
    if (char === " ") columns += 1;
    else if (char === "\t") columns += tabSize - (columns % tabSize);
    else break;
  }
  return columns;
}

function indentDecorations(view) {
  const builder = new RangeSetBuilder();
  const tabSize = view.state.tabSize;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      const columns = indentColumns(line.text, tabSize);
      if (columns) builder.add(line.from, line.from, Decoration.line({ attributes: { style: `--lw-indent: ${columns}ch` } }));
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

const wrappedLineIndent = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = indentDecorations(view); }
  update(update) {
    if (update.docChanged || update.viewportChanged) this.decorations = indentDecorations(update.view);
  }
}, { decorations: (plugin) => plugin.decorations });

const common = [
  lineNumbers(),
  pythonLanguage,
  syntaxHighlighting(classHighlighter), // tok-keyword, tok-string, ...: styled by practice.css
  bracketMatching(),
  indentUnit.of("    "),
  EditorState.tabSize.of(4),
  // Long lines wrap instead of scrolling sideways: a scroll box that only the mouse can scroll fails WCAG 2.1.1,
  // and on a phone the code stays in view.
  EditorView.lineWrapping,
  wrappedLineIndent,
];

/* An editable Python editor in `parent`. Tab / Shift-Tab indent; Escape then Tab leaves the editor (CodeMirror's
 * tab-focus mode); Ctrl/Cmd-Enter calls onRun. Returns {view, getCode(), setCode(text), undo(), focus()}: setCode
 * is one transaction of the editor's history, so Ctrl-Z (or undo()) takes it back. */
export function createEditor(parent, { doc, label, onRun, onChange, onFocus }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        ...common,
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } },
                   ...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
          if (update.focusChanged && update.view.hasFocus) onFocus();
        }),
        EditorView.contentAttributes.of({ "aria-label": label }),
      ],
    }),
  });
  return {
    view,
    getCode: () => view.state.doc.toString(),
    // its own step of the history: typed within 0.5 s before, it would join the typing's step, and undo both
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text },
                                       annotations: isolateHistory.of("full") }),
    undo: () => undo(view),
    focus: () => view.focus(),
  };
}

/* Read-only code in the editor's highlighting (the revealed solution). */
export function showCode(parent, { doc, label }) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [...common, EditorState.readOnly.of(true), EditorView.editable.of(false),
                   EditorView.contentAttributes.of({ "aria-label": label })],
    }),
  });
}
