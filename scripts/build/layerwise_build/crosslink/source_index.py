"""The index of the generated source pages, ``source/index.md``: every file, grouped by folder, with the first line
of its module docstring and how many of its lines link back to an equation.

The nav holds this one page rather than a link per file: mkdocs-material renders the nav on every page, and a link
per module was most of its elements (on LayerNorm at 412 px, 309 of the primary sidebar's 469).
"""
from __future__ import annotations

import ast
import posixpath
import re
from html import escape

from .codeindex import FileIndex
from .equations import EquationCatalog
from .project import Project
from .render import relative_url

TITLE = "Source"
# one character wide, so that the docstrings keep the width of a phone; its title says what it counts
_SUM_HEADER = '<abbr title="Lines that link back to an equation">∑</abbr>'
_CODE_SPAN = re.compile(r"``(.+?)``|`([^`]+)`")  # the docstrings' literals: ``x`` (reST) or `x`

INTRO = """\
Every Python file of the project has a page here, made by the build from the file as it is now: the code with its
real line numbers, each line an anchor that the pages' "Code and math" tables, code listings and "Tests it" links
point at. A line that computes an equation, or writes one out inline, carries a ∑ link back to that equation on its
page; the column ∑ counts those lines. Nothing here is kept by hand: a new file gets its page and its row at the
next build.

The folders of `{package}/` come first, then those of `{tests}/`."""


def index_page(project: Project) -> str:
    """Docs-relative path of the index: source/index.md."""
    return f"{project.source_dir}/index.md"


def trail_markdown(path: str) -> str:
    """The line above a source page's title, a link back to the index: "Source ›"."""
    return f"[{TITLE}]({posixpath.relpath('index.md', posixpath.dirname(path))}) ›"


def summary(tree: ast.Module) -> str:
    """The first line of the module's docstring, with "…" when its first paragraph goes on; "" without one."""
    docstring = ast.get_docstring(tree) or ""
    paragraph = docstring.split("\n\n", 1)[0].strip().splitlines()
    if not paragraph:
        return ""
    return paragraph[0].strip() + (" …" if len(paragraph) > 1 else "")


def _inline_html(text: str) -> str:
    """`text` escaped for HTML, its code literals as <code> (escaping leaves backticks alone)."""
    return _CODE_SPAN.sub(lambda m: f"<code>{m.group(1) or m.group(2)}</code>", escape(text))


def _folder_order(project: Project):
    """The package's folders before the tests', each group by name."""
    return lambda folder: (project.is_test(folder + "/"), folder)


def source_index_markdown(files: dict[str, FileIndex], catalog: EquationCatalog, project: Project) -> str:
    """The index page's Markdown: the introduction, then per folder a heading and a table of its files. The tables
    are HTML (a docstring's `*`, `|` or `$` would be Markdown); mkdocs' own link check cannot see their links, the
    build's link check after the build does."""
    page_url = project.source_dir + "/"
    folders: dict[str, list[str]] = {}
    for path in sorted(files):
        folders.setdefault(posixpath.dirname(path), []).append(path)
    sections = []
    for folder in sorted(folders, key=_folder_order(project)):
        rows = []
        for path in folders[folder]:
            href = relative_url(project.source_url(path), page_url)
            linked = len(catalog.implementing_lines(path))
            # the name as plain text: Material breaks code anywhere in a table cell ("activations.p" / "y"); the
            # docstring under it, not in a column of its own, keeps the cell's width on a phone
            about = summary(files[path].tree)
            rows.append(f'<tr><td><a href="{escape(href)}">{escape(posixpath.basename(path))}</a>'
                        + (f"<br>{_inline_html(about)}" if about else "") + f"</td><td>{linked}</td></tr>")
        sections.append(f"## {folder}/\n\n"
                        f"<table>\n<thead><tr><th>File</th><th>{_SUM_HEADER}</th></tr></thead>\n"
                        "<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n")
    intro = INTRO.format(package=project.package, tests=project.tests)
    front = (f"---\ndescription: Every Python file of {project.package}/ and {project.tests}/, each with a page of "
             "its code, line by line.\n---\n")
    return f"{front}\n# {TITLE}\n\n{intro}\n\n" + "\n".join(sections)
