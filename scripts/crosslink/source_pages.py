"""Generated source pages: every module as a page with line numbers, `#L12` anchors and links back to equations."""
from __future__ import annotations

from html import escape

from .codeindex import FileIndex
from .equations import EquationCatalog
from .project import Project
from .render import relative_url, render_code


def source_page_markdown(file: FileIndex, catalog: EquationCatalog, page_urls: dict[str, str],
                         project: Project) -> str:
    """The page's Markdown: a title, then the code as one raw-HTML block (so Markdown leaves it alone)."""
    page_url = project.source_url(file.path)
    backlinks = {
        lineno: [(relative_url(f"{page_urls[e.page]}#{e.anchor}", page_url), e.title) for e in equations]
        for lineno, equations in catalog.implementing_lines(file.path).items()
    }
    code = render_code(file.lines, 1, lambda n: f"#L{n}", line_ids=True, backlinks=backlinks)
    intro = (f"{len(backlinks)} lines link back to the equations they implement (marked ∑)." if backlinks
             else "No equation of the site links to a line of this file.")
    return f"# {file.path}\n\n<p class=\"lw-source__intro\">{escape(intro)}</p>\n\n{code}\n"
