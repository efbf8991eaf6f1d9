"""HTML of an exercise and of the list of every exercise, complete without JavaScript.

The markup is the contract with `widgets/practice/`: the browser replaces the starter's ``<pre>`` with the editor
and reads the exercise's data (starter, solution, hints) from its ``data-practice`` attribute. The statement is
Markdown; its math stays in arithmatex elements that `layerwise_build/mathrender` typesets when the page is written.
"""
import json
from html import escape

import markdown
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

KIND_LABELS = {"write": "Write it", "fix": "Fix the bug"}
# The note under the editor, one per reader: without JavaScript; with it, on a screen with a keyboard; on a touch
# screen without one (no Ctrl+Enter or Tab to tell of). All three are written here and CSS shows one, so nothing
# changes size when the script arrives (practice.css).
NOTES = {
    "static": "Running the tests needs the live engine (Python in your browser, started by JavaScript). Without it, "
              "the statement and the starter code above are all there is: copy the starter and work on it in your "
              "own Python.",
    "keys": "Ctrl+Enter (⌘+Enter) runs the tests. In the editor, Tab indents; press Escape, then Tab, to move on.",
    "touch": "Run tests checks your code here, in your browser, with the same tests as the site's own.",
}


def statement_html(text):
    """The statement's Markdown as HTML; inline math is left to the build's KaTeX pass."""
    return markdown.markdown(text, extensions=["pymdownx.arithmatex"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})


def code_html(source):
    """Python source highlighted like the page's own code blocks (mkdocs-material styles Pygments' classes), one
    element a line: the page lays it out as the editor that replaces it will (numbered, wrapped under each line's own
    indentation), so the swap moves nothing. Pygments closes its token spans at each line's end, so splitting at
    newlines keeps the markup whole."""
    body = highlight(source, PythonLexer(stripnl=False), HtmlFormatter(nowrap=True))
    lines = body.split("\n")[:-1]  # Pygments ends its output with a newline
    if source.endswith("\n"):
        lines.append("")  # the editor shows the empty line after a final newline
    spans = "".join(f'<span class="lw-code-line"{indent_style(text)}>{line}\n</span>'
                    for line, text in zip(lines, source.split("\n")))
    # the editor's gutter is as wide as its largest number, and at least one digit wide: so is the static one's
    digits = len(str(len(lines)))
    return f'<div class="highlight"><pre style="--lw-gutter-digits: {digits}"><code>{spans}</code></pre></div>'


def indent_style(line, tab_size=4):
    """The line's indentation in columns as codemirror.js gives it to each editor line (--lw-indent)."""
    columns = 0
    for char in line:
        if char == " ":
            columns += 1
        elif char == "\t":
            columns += tab_size - columns % tab_size
        else:
            break
    return f' style="--lw-indent: {columns}ch"' if columns else ""


def button_html(text, role, hidden=False):
    """A control of the exercise, inert until the editor is made (practice.css hides the bar without JavaScript)."""
    return (f'<button type="button" class="lw-button lw-exercise__{role}" disabled'
            f'{" hidden" if hidden else ""}>{escape(text)}</button>')


def controls_html(exercise):
    """The bar, notes and empty result places the script fills: written at their size, so arriving moves nothing."""
    notes = "".join(f'<span class="lw-exercise__note-{name}">{escape(text)}</span>' for name, text in NOTES.items())
    return "".join([
        '<div class="lw-exercise__bar">',
        button_html("Run tests", "run"),
        button_html(f"Hint 1 of {len(exercise.HINTS)}", "hint"),
        button_html("Show the solution", "solution-button", hidden=True),
        button_html("Reset", "reset"),
        '</div>',
        f'<p class="lw-exercise__note">{notes}</p>',
        '<p class="lw-exercise__status" role="status"></p>',
        '<ol class="lw-exercise__hints"></ol>',
        '<div class="lw-exercise__solution" hidden></div>',
        '<div class="lw-exercise__feedback"></div>',
    ])


def exercise_html(exercise_id, exercise, used_in=None):
    """One exercise: title, kind, statement, starter, its controls and notes, and its data for the browser.
    ``used_in``: (title, relative URL) of the page that puts the passed function into the whole model, if it does."""
    data = {"function": exercise.FUNCTION, "starter": exercise.STARTER, "solution": exercise.SOLUTION,
            "hints": list(exercise.HINTS), "lab": bool(getattr(exercise, "LAB", False))}
    return "".join([
        # The data for the browser in an attribute, not a <script type="application/json">: mkdocs-material's
        # instant navigation re-creates the scripts of a new page and would run that one as JavaScript.
        f'<div class="lw-exercise" id="exercise-{escape(exercise_id)}" data-exercise="{escape(exercise_id)}" '
        f'data-practice="{escape(json.dumps(data), quote=True)}">',
        '<div class="lw-exercise__head">',
        f'<h3 class="lw-exercise__title">{escape(exercise.TITLE)}</h3>',
        f'<span class="lw-exercise__kind">{KIND_LABELS[exercise.KIND]}</span>',
        '<span class="lw-exercise__state" data-state="new">not passed yet</span>',
        '</div>',
        f'<div class="lw-exercise__statement">{statement_html(exercise.STATEMENT)}</div>',
        (f'<p class="lw-exercise__used">Once you pass it, <a href="{escape(used_in[1])}">{escape(used_in[0])}</a> '
         "runs your function inside the whole model.</p>" if used_in else ""),
        f'<div class="lw-exercise__code" data-search-exclude>{code_html(exercise.STARTER)}</div>',
        controls_html(exercise),
        '</div>',
    ])


def index_html(entries):
    """A table of every exercise on the site: page, exercise (linked), kind and a state cell the browser fills in.
    ``entries``: (exercise id, module, page title, page-relative URL of the exercise) in site order."""
    rows = []
    for exercise_id, exercise, page_title, url in entries:
        rows.append(f'<tr data-exercise="{escape(exercise_id)}"><td>{escape(page_title)}</td>'
                    f'<td><a href="{escape(url)}">{escape(exercise.TITLE)}</a></td>'
                    f'<td>{KIND_LABELS[exercise.KIND]}</td>'
                    '<td class="lw-practice-index__state">not started</td></tr>')
    return ('<div class="lw-practice-index">'
            f'<p class="lw-practice-index__summary" role="status">{len(entries)} exercises.</p>'
            '<table><thead><tr><th>Page</th><th>Exercise</th><th>Kind</th><th>Your progress</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')
