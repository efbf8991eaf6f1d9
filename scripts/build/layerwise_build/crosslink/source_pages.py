"""Generated source pages: every module as a page with line numbers, `#L12` anchors and links back to equations."""
from __future__ import annotations

from html import escape

from .codeindex import FileIndex
from .equations import EquationCatalog
from .project import Project
from .render import relative_url, render_code
from .source_index import trail_markdown


PLACEHOLDER = '<div class="lw-source-placeholder"></div>'


def source_page_markdown(path: str) -> str:
    """The page's Markdown: a line back to the index (the page is not in the nav, so the nav marks no entry for
    it), a title and a placeholder; the code goes in after Markdown ran (`source_page_html`), because parsing
    thousands of highlighted spans as raw HTML would be most of the build's time.
    Front matter keeps the code out of the search index for the same reason, and gives it the table of
    contents' width."""
    return (f"---\nsearch:\n  exclude: true\nhide:\n  - toc\n---\n\n{trail_markdown(path)}\n\n# {path}\n\n"
            f"{PLACEHOLDER}\n")


def source_page_html(file: FileIndex, catalog: EquationCatalog, page_urls: dict[str, str], project: Project) -> str:
    """The HTML that replaces the placeholder: an introduction and the numbered, back-linked code."""
    page_url = project.source_url(file.path)
    backlinks = {
        lineno: [(relative_url(f"{page_urls[e.page]}#{e.anchor}", page_url), e.title) for e in equations]
        for lineno, equations in catalog.implementing_lines(file.path).items()
    }
    code = render_code(file.lines, 1, lambda n: f"#L{n}", f"Source of {file.path}", line_ids=True,
                       backlinks=backlinks)
    intro = (f"{len(backlinks)} lines link back to the equations they implement (marked ∑)." if backlinks
             else "No equation of the site links to a line of this file.")
    return f'<p class="lw-source__intro">{escape(intro)}</p>\n{code}\n'
