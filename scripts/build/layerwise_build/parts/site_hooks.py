"""mkdocs hooks of Layerwise's build: the cross-linker, generated source pages, math rendered by KaTeX, a link check.

Registered in mkdocs.yml under `hooks:`. The work lives in `scripts/crosslink/` and `scripts/mathrender/`; this file
only connects it to mkdocs' events. Every problem is logged as a warning naming page, equation and symbol, so
`--strict` fails.
"""
from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

SCRIPTS = Path(__file__).resolve().parents[2]  # scripts/build: layerwise_build is not installed yet
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.structure.files import File, InclusionLevel  # noqa: E402

from layerwise_build.crosslink.codeindex import python_files  # noqa: E402
from layerwise_build.crosslink.linkcheck import check_site  # noqa: E402
from layerwise_build.crosslink.project import Project  # noqa: E402
from layerwise_build.crosslink.site import SiteBuild  # noqa: E402
from layerwise_build.mathrender import KatexError, KatexRenderer, index_math, render_math  # noqa: E402
from layerwise_build.newpage.places import unfilled  # noqa: E402
from layerwise_build import sitenav  # noqa: E402

log = logging.getLogger("mkdocs.plugins.layerwise")
KATEX_DIST = SCRIPTS.parents[1] / "node_modules" / "katex" / "dist"
KATEX_FILES = ["katex.min.css"]  # and its fonts: the HTML is made at build time, so no KaTeX script ships
KATEX_SITE_DIR = "assets/vendor/katex"
_ID = re.compile(r'\bid="([^"]+)"')

_build: SiteBuild | None = None  # one per mkdocs build; replaced in on_config so serve rebuilds start clean
_page_texts: dict[str, str] = {}  # every page's Markdown, front matter included: the learning path reads it
_katex = KatexRenderer()  # kept across `mkdocs serve` rebuilds: its cache makes a rebuild render only new formulas


def project_of(config) -> Project:
    """The code beside the docs folder; `extra: {crosslink_package: ...}` names another package (test fixtures)."""
    root = Path(config.docs_dir).resolve().parent
    return Project(root=root, package=config.extra.get("crosslink_package", "engine"), exclude=("tests/site/fixtures",),
                   demos=("engine/examples",))


def on_config(config):
    global _build
    _build = SiteBuild(project_of(config), log.warning)
    project = _build.project
    superfences = config.mdx_configs.setdefault("pymdownx.superfences", {})
    superfences["custom_fences"] = [
        f for f in superfences.get("custom_fences", []) if f["name"] not in {d["name"] for d in _build.custom_fences()}
    ] + _build.custom_fences()
    if config.nav is not None:
        config.nav = [item for item in config.nav if not (isinstance(item, dict) and "Source" in item)]
        config.nav.append({"Source": [{path: project.source_page(path)}
                                      for path in python_files(project.root, [project.package])]})
    return config


def on_files(files, config):
    pages = {f.src_uri: f.content_string for f in files.documentation_pages()}
    urls = {f.src_uri: f.url for f in files.documentation_pages()}
    _build.collect(pages, urls)
    _page_texts.clear()
    _page_texts.update(pages)
    project = _build.project
    for message in unfilled(project.root, ["docs", project.package, "tests"], exclude=project.exclude):
        log.warning(message)  # a scaffolded page's places (scripts/newpage): one warning each, so --strict fails
    index = _build.index
    log.info(f"cross-linker: {len(index.files)} Python files indexed, {len(index.parsed)} parsed, "
             f"{len(index.files) - len(index.parsed)} unchanged since the last build")
    for path in _build.source_paths():
        # test files are reached from "Tests it" / "Tested by" links; listing them in the nav of every page
        # would double the nav (and the time Material spends rendering it)
        inclusion = InclusionLevel.NOT_IN_NAV if _build.project.is_test(path) else InclusionLevel.UNDEFINED
        files.append(File.generated(config, _build.project.source_page(path), content=_build.source_page(path),
                                    inclusion=inclusion))
    if not KATEX_DIST.is_dir():
        raise PluginError(f"KaTeX is missing at {KATEX_DIST}: run `npm ci` (bash scripts/dev.sh serve does it)")
    vendored = KATEX_FILES + [f"fonts/{p.name}" for p in sorted((KATEX_DIST / "fonts").iterdir())]
    for name in vendored:
        files.append(File.generated(config, f"{KATEX_SITE_DIR}/{name}", abs_src_path=str(KATEX_DIST / name)))
    return files


def on_page_markdown(markdown, page, config, files):
    if _build.source_path_of(page.file.src_uri):
        return markdown  # generated source pages: no directives, no inline values
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
    # mkdocs-material's search indexes the page next (on_page_context): let it read each formula as plain text
    try:
        return index_math(html, _katex)
    except KatexError as error:
        log.warning(f"page {page.file.src_uri!r}: {error}")
        return html


def on_post_page(output, page, config):
    try:
        return render_math(output, _katex)
    except KatexError as error:
        log.warning(f"page {page.file.src_uri!r}: {error}")
        return output


def on_shutdown():
    _katex.close()


def on_post_build(config):
    for problem in check_site(Path(config.site_dir), base_path=urlsplit(config.site_url or "/").path or "/"):
        log.warning(problem)
