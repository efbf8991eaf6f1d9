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
NO_ENGINE_NOTE = ("Running the tests needs the live engine (Python in your browser, started by JavaScript). "
                  "Without it, the statement and the starter code above are all there is: copy the starter and "
                  "work on it in your own Python.")


def statement_html(text):
    """The statement's Markdown as HTML; inline math is left to the build's KaTeX pass."""
    return markdown.markdown(text, extensions=["pymdownx.arithmatex"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})


def code_html(source):
    """Python source highlighted like the page's own code blocks (mkdocs-material styles Pygments' classes)."""
    body = highlight(source, PythonLexer(), HtmlFormatter(nowrap=True))
    return f'<div class="highlight"><pre><code>{body}</code></pre></div>'


def exercise_html(exercise_id, exercise):
    """One exercise: title, kind, statement, starter, the no-engine note, and its data for the browser."""
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
        f'<div class="lw-exercise__code" data-search-exclude>{code_html(exercise.STARTER)}</div>',
        f'<p class="lw-exercise__note">{NO_ENGINE_NOTE}</p>',
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
