"""Render half of the cross-linker: HTML for equations, "Code and math" tables, implementations, code lines.

Every function takes what the collect half produced and the URL of the page being rendered (links are relative,
so the site works from any folder and with `mkdocs serve`).
"""
from __future__ import annotations

import functools
import posixpath
from html import escape

from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES

from .codeindex import CodeIndex, module_name
from .equations import ROLES, Equation
from .project import Project

CODEMATH_COLUMNS = ("Role", "Line", "Function", "Code")

BADGE = "derived from the implementation"


def relative_url(target: str, page_url: str) -> str:
    """`target` (a site URL, maybe with #fragment) as seen from the directory-style page at `page_url`."""
    path, _, fragment = target.partition("#")
    suffix = f"#{fragment}" if fragment else ""
    if not path:
        return suffix
    rel = posixpath.relpath(path.rstrip("/") or ".", page_url.rstrip("/") or ".")
    rel = "./" if rel == "." else rel + ("/" if path.endswith("/") else "")
    return rel + suffix


def _css_class(token_type) -> str:
    while token_type not in STANDARD_TYPES:
        token_type = token_type.parent
    return STANDARD_TYPES[token_type]


def highlight_lines(lines: list[str]) -> tuple[str, ...]:
    """Pygments-highlighted HTML, one string per source line (tokens spanning lines are split at the breaks)."""
    return _highlight("\n".join(lines))[: len(lines)]


@functools.lru_cache(maxsize=1024)
def _highlight(text: str) -> tuple[str, ...]:
    # Cached by content: lexing is most of the cross-linker's time, and `mkdocs serve` rebuilds re-render every
    # source page even when its file did not change.
    out: list[list[str]] = [[]]
    for token_type, value in PythonLexer(stripnl=False, ensurenl=False).get_tokens(text):
        css = _css_class(token_type)
        for i, piece in enumerate(value.split("\n")):
            if i:
                out.append([])
            if piece:
                out[-1].append(f'<span class="{css}">{escape(piece)}</span>' if css else escape(piece))
    return tuple("".join(parts) for parts in out)


def scroll_box(label: str) -> str:
    """Attributes of a block that may scroll sideways: a tab stop, so a keyboard can scroll it, a role and a name
    saying what it holds. docs/assets/scroll-regions.js takes the stop away while the block fits its column."""
    return f' tabindex="0" role="group" aria-label="{escape(label)}"'


def render_code(lines: list[str], first_lineno: int, number_href, label: str, line_ids: bool = False,
                backlinks: dict[int, list[tuple[str, str]]] | None = None) -> str:
    """A code table with true line numbers; `number_href(lineno)` is where each number links to, `label` names
    the listing for assistive technology.

    `line_ids` gives each row the anchor `L<n>` (source pages). `backlinks` (source pages) maps a line to the
    (href, title) of the equations it implements; they get a column beside the numbers, where they stay in view.
    """
    rows = []
    for offset, html in enumerate(highlight_lines(lines)):
        n = first_lineno + offset
        row_id = f' id="L{n}"' if line_ids else ""
        links = ""
        if backlinks is not None:
            links = '<td class="lw-code__eq">' + "".join(
                f'<a class="lw-backlink" href="{escape(href)}" title="Implements: {escape(title)}">'
                f'∑ <span class="lw-backlink__id">{escape(href.rpartition("#eq-")[2])}</span></a>'
                for href, title in backlinks.get(n, [])
            ) + "</td>"
        rows.append(
            f'<tr{row_id}><td class="lw-code__num"><a href="{escape(number_href(n))}">{n}</a></td>{links}'
            f'<td class="lw-code__src"><code>{html}</code></td></tr>'
        )
    # a class on the table keeps Material's styling of Markdown tables (borders, padding) off the code; code lines
    # stay out of the search index (the heading naming the function stays in), or every search would list them
    return (f'<div class="lw-code highlight" data-search-exclude{scroll_box(label)}><table class="lw-code__table">'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def render_equation(equation: Equation, latex: str, project: Project, page_url: str) -> str:
    computes = equation.rows_for("Computes it")
    code_link = ""
    if computes:
        first = computes[0]
        href = relative_url(project.source_url(first.path, first.lineno), page_url)
        code_link = (f'<a class="lw-equation__code" href="{escape(href)}" title="The lines that compute it" '
                     f'data-search-exclude>{escape(first.path)}:{first.lineno}</a>')
    badge = f'<span class="lw-badge" data-search-exclude>{BADGE}</span>' if equation.derived else ""
    anchor = escape(equation.anchor)
    # the search index keeps the title and the formula (as plain text, see layerwise_build/mathrender), apart, and
    # leaves out the badge and the links, which would run into them
    return (
        f'<div class="lw-equation" id="{anchor}">'
        f'<div class="lw-equation__head"><span class="lw-equation__title">{escape(equation.title)}</span>{badge}'
        f'{code_link}<a class="lw-equation__anchor" href="#{anchor}" title="Link to this equation" data-search-exclude>'
        f'¶</a></div>\n'
        f'<div class="arithmatex"{scroll_box(f"Equation: {equation.title}")}>\\[{escape(latex.strip())}\\]</div></div>'
    )


def _in_module(row) -> str:
    """The enclosing function as named inside its file (the Line column already names the file)."""
    module = module_name(row.path)
    return row.function[len(module) + 1 :] if row.function.startswith(module + ".") else "(module level)"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def render_codemath(equations: list[Equation], project: Project, page_url: str) -> str:
    """A collapsed block whose summary counts the places; inside, per equation a heading row, then one row per
    (role, line). Call sites depend only on the helper, so when several equations of the table name the same
    helper, its "Calls it" and "Tests it" rows appear once, under the first of them. Two levels of header cells
    (the columns, then each equation's row), so every data cell names both by ``headers`` (WCAG 1.3.1, H43)."""
    rows, places, callers_shown = [], set(), set()
    table_id = f"codemath-{equations[0].anchor}"  # equation anchors are unique on the site
    columns = [(f"{table_id}-{name.lower()}", name) for name in CODEMATH_COLUMNS]
    for equation in equations:
        heading = f"{equation.anchor}-places"
        rows.append(f'<tr class="lw-codemath__eq"><th colspan="4" id="{escape(heading)}">'
                    f'<a href="#{escape(equation.anchor)}">{escape(equation.title)}</a></th></tr>')
        for role in ROLES:
            if role in ("Calls it", "Tests it") and equation.code in callers_shown:
                continue
            for row in equation.rows_for(role):
                places.add((row.path, row.lineno))
                href = relative_url(project.source_url(row.path, row.lineno), page_url)
                cells = [role, f'<a href="{escape(href)}">{escape(row.path)}:{row.lineno}</a>',
                         f'<code>{escape(_in_module(row))}</code>{_via(row.via, project)}',
                         f'<code>{escape(row.code)}</code>']
                rows.append("<tr>" + "".join(f'<td headers="{escape(column)} {escape(heading)}">{cell}</td>'
                                             for (column, _), cell in zip(columns, cells)) + "</tr>")
        callers_shown.add(equation.code)
    summary = (f"Code and math: {_count(len(places), 'place')} in "
               f"{_count(len({path for path, _ in places}), 'file')}")
    head = "<tr>" + "".join(f'<th id="{escape(column)}">{name}</th>' for column, name in columns) + "</tr>"
    # a class on the table keeps Material's styling of Markdown tables off; the code scrolls inside the wrapper
    return (f'<details class="info lw-codemath"><summary>{summary}</summary>'
            f'<div class="lw-codemath__scroll" data-search-exclude{scroll_box(summary)}>'
            f'<table class="lw-codemath__table"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
            f'</div></details>')


def _via(table: str | None, project: Project) -> str:
    """How a use reached the function when not by its name: through a dispatch table."""
    return f' <span class="lw-where">via <code>{escape(project.short_name(table))}</code></span>' if table else ""


def _use_list(calls, project: Project, page_url: str, nobody: str) -> str:
    """Each user once, linked to its first use, with the lines of all its uses: a test that calls the function
    twice is one test ("test_x (tests/test_a.py:72, 75)"), not two entries."""
    if not calls:
        return f"<em>{nobody}</em>"
    users: dict[tuple, list[int]] = {}
    for call in calls:
        users.setdefault((call.caller, call.path, call.via), []).append(call.lineno)
    items = []
    for (caller, path, via_table), lines in users.items():
        href = relative_url(project.source_url(path, lines[0]), page_url)
        via = f", via {escape(project.short_name(via_table))}" if via_table else ""
        items.append(f'<a href="{escape(href)}"><code>{escape(project.short_name(caller))}</code></a> '
                     f'<span class="lw-where">({escape(path)}:{", ".join(map(str, lines))}{via})</span>')
    return ", ".join(items)


def render_implementation(symbol: str, index: CodeIndex, project: Project, page_url: str) -> str:
    """The function's source with its true line numbers, then who calls it and which tests do."""
    function = index.function(symbol)
    file = index.files[function.path]
    first = min([function.lineno] + [d.lineno for d in function.node.decorator_list])
    lines = file.lines[first - 1 : function.end_lineno]
    page_href = relative_url(project.source_url(function.path, first), page_url)
    code = render_code(lines, first, lambda n: relative_url(project.source_url(function.path, n), page_url),
                       f"Source of {project.short_name(symbol)}, {function.path} lines {first}–{function.end_lineno}")
    called_by = _use_list(index.call_sites(symbol, project.is_model_code), project, page_url,
                          f"nothing in {project.package}/ calls it or refers to it")
    tested_by = _use_list(index.call_sites(symbol, project.is_test), project, page_url,
                          "no test calls it or refers to it")
    return (
        f'<div class="lw-impl"><div class="lw-impl__head"><a href="{escape(page_href)}">'
        f'<code>{escape(function.path)}</code></a> <code>{escape(project.short_name(symbol))}</code>, '
        f'lines {first}–{function.end_lineno}</div>{code}'
        f'<p class="lw-impl__uses" data-search-exclude><strong>Called by:</strong> {called_by}</p>'
        f'<p class="lw-impl__uses" data-search-exclude><strong>Tested by:</strong> {tested_by}</p></div>'
    )


def render_problem(message: str) -> str:
    """What a broken directive shows in `mkdocs serve` (a strict build stops on the logged warning)."""
    return f'<div class="admonition failure"><p class="admonition-title">Broken cross-link</p><p>{escape(message)}</p></div>'
