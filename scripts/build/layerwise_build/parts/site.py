"""The plugin's first part, always on: the cross-linker, generated source pages and their index (the nav's
"Source"), math rendered by KaTeX, the learning path, the scaffold's unfilled places, a link check.

The work lives in ``crosslink/``, ``mathrender/``, ``sitenav/`` and ``newpage/``; this module only connects it to
mkdocs' events. Every problem is logged as a warning naming page, equation and symbol, so ``--strict`` fails.
"""
from __future__ import annotations

import logging
import re
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.utils import get_relative_url

from .. import sitenav
from ..crosslink.linkcheck import check_site
from ..crosslink.project import Project
from ..crosslink.site import SiteBuild
from ..crosslink.source_index import TITLE as SOURCE_TITLE, index_page
from ..mathrender import KatexError, KatexRenderer, index_math, render_math
from ..mathrender.fonts import KatexFonts, with_font_preloads
from ..mathrender.stray_dollars import stray_dollars
from ..newpage.places import unfilled
from ..pagescripts import after_first_frame

log = logging.getLogger("mkdocs.plugins.layerwise")
KATEX_DIST = Path("node_modules") / "katex" / "dist"  # under the project's root, where `npm ci` puts it
KATEX_FILES = ["katex.min.css"]  # and its fonts: the HTML is made at build time, so no KaTeX script ships
KATEX_SITE_DIR = "assets/vendor/katex"
_ID = re.compile(r'\bid="([^"]+)"')

_build: SiteBuild | None = None  # one per mkdocs build; replaced in on_config so serve rebuilds start clean
_page_texts: dict[str, str] = {}  # every page's Markdown, front matter included: the learning path reads it
_katex = KatexRenderer()  # kept across `mkdocs serve` rebuilds: its cache makes a rebuild render only new formulas
_katex_fonts: KatexFonts | None = None  # read from the shipped katex.min.css in on_files


def project_of(options, root) -> Project:
    """The code the plugin's options name: the package, its tests, its demonstrations and what to leave out."""
    return Project(root=root, package=options.package, tests=options.tests, exclude=tuple(options.exclude),
                   demos=tuple(options.demos))


def on_config(config, options, root):
    global _build
    _build = SiteBuild(project_of(options, root), log.warning)
    project = _build.project
    superfences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    superfences["custom_fences"] = [
        f for f in superfences.get("custom_fences", []) if f["name"] not in {d["name"] for d in _build.custom_fences()}
    ] + _build.custom_fences()
    if config.nav is not None:
        # one entry, the index of the source pages: a link per module, on every page, was most of the nav
        config.nav = [item for item in config.nav if not (isinstance(item, dict) and SOURCE_TITLE in item)]
        config.nav.append({SOURCE_TITLE: index_page(project)})
    return config


def on_files(files, config):
    pages = {f.src_uri: f.content_string for f in files.documentation_pages()}
    urls = {f.src_uri: f.url for f in files.documentation_pages()}
    _build.collect(pages, urls)
    _page_texts.clear()
    _page_texts.update(pages)
    project = _build.project
    docs = Path(config.docs_dir).resolve().relative_to(project.root).as_posix()
    for message in unfilled(project.root, [docs, project.package, project.tests], exclude=project.exclude):
        log.warning(message)  # a scaffolded page's places (newpage/): one warning each, so --strict fails
    index = _build.index
    log.info(f"cross-linker: {len(index.files)} Python files indexed, {len(index.parsed)} parsed, "
             f"{len(index.files) - len(index.parsed)} unchanged since the last build")
    # every source page is reached from the index (the nav's "Source"), from the pages' code links and from each
    # other's "Source ›" line, none from the nav itself
    for path in _build.source_paths():
        files.append(File.generated(config, project.source_page(path), content=_build.source_page(path),
                                    inclusion=InclusionLevel.NOT_IN_NAV))
    files.append(File.generated(config, index_page(project), content=_build.source_index()))
    katex = project.root / KATEX_DIST
    if not katex.is_dir():
        raise PluginError(f"KaTeX is missing at {katex}: run `npm ci` (bash scripts/dev.sh serve does it)")
    global _katex_fonts
    _katex_fonts = KatexFonts.from_file(katex / "katex.min.css")
    vendored = KATEX_FILES + [f"fonts/{p.name}" for p in sorted((katex / "fonts").iterdir())]
    for name in vendored:
        files.append(File.generated(config, f"{KATEX_SITE_DIR}/{name}", abs_src_path=str(katex / name)))
    return files


def on_page_markdown(markdown, page, config, files):
    if _build.is_generated(page.file.src_uri):
        return markdown  # the source pages and their index: no directives, no inline values
    try:
        markdown = sitenav.fill_learning_path(markdown, config.nav, _page_texts)
    except sitenav.NavError as error:
        raise PluginError(str(error)) from None
    return _build.prepare_page(page.file.src_uri, page.url, markdown)


def on_page_content(html, page, config, files):
    source_path = _build.source_path_of(page.file.src_uri)
    if source_path:
        html = _build.fill_source_page(source_path, html)
    # mkdocs collects anchor ids before superfences' output is put back, so the directives' ids
    # (#eq-..., #L12) are added here for its link validation to see.
    page.present_anchor_ids = (page.present_anchor_ids or set()) | set(_ID.findall(html))
    for snippet in stray_dollars(html):
        log.warning(f"page {page.file.src_uri!r}: a '$' is left as text, math that did not render (no space may "
                    f"follow the opening $ or precede the closing one; write a literal dollar as &#36;): {snippet!r}")
    # mkdocs-material's search indexes the page next (on_page_context): let it read each formula as plain text
    try:
        return index_math(html, _katex)
    except KatexError as error:
        log.warning(f"page {page.file.src_uri!r}: {error}")
        return html


TOC_TOGGLE = '<input class="md-nav__toggle md-toggle" type="checkbox" id="__toc">'


def without_unlabelled_toc_toggle(output):
    """mkdocs-material writes the phone's table-of-contents switch on every page, and its labels only where the page
    has a table of contents: a checkbox with no name then fails WCAG 4.1.2 (pa11y, on the Practice page)."""
    return output if 'for="__toc"' in output else output.replace(TOC_TOGGLE, "", 1)


def on_post_page(output, page, config):
    output = after_first_frame(without_unlabelled_toc_toggle(output), page.file.src_uri)
    try:
        output = render_math(output, _katex)
    except KatexError as error:
        log.warning(f"page {page.file.src_uri!r}: {error}")
        return output
    fonts_url = get_relative_url(KATEX_SITE_DIR, page.url)
    fonts = [(file, _katex_fonts.font_of(file)) for file in _katex_fonts.used_by(output)]
    return with_font_preloads(output, fonts, fonts_url)


def on_post_template(output, template_name, config):
    """The theme's static pages (404.html) load the same scripts as the others."""
    return after_first_frame(output, template_name) if template_name.endswith(".html") else output


def on_shutdown():
    _katex.close()


def on_post_build(config):
    for problem in check_site(Path(config.site_dir), base_path=urlsplit(config.site_url or "/").path or "/"):
        log.warning(problem)
