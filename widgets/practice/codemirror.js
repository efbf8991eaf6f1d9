/* The code editor, built from CodeMirror 6's npm packages into one bundle at site-build time
 * (layerwise_build/practice/bundle.py): only what is imported here ships. Colours come from mkdocs-material's own code
 * palette (CSS variables in widgets/practice/practice.css), so the editor follows the light and dark schemes. */
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory, undo } from "@codemirror/commands";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { pythonLanguage } from "@codemirror/lang-python";
import { classHighlighter } from "@lezer/highlight";

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
