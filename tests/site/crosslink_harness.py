"""Shared by the site tests: render Markdown through the cross-linker outside mkdocs, read tables back as text."""
from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import markdown

from layerwise_build.crosslink.project import Project
from layerwise_build.crosslink.site import SiteBuild
from layerwise_build import sitenav

REPO = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "project"
PUBLISHED_URL = "https://example.org/some/path/"  # SITE_URL of the published_site fixture: below the root of an origin


def nav_pages(sections_only: bool = False) -> list[str]:
    """The pages of mkdocs.yml's nav in order, as the build reads them (layerwise_build/sitenav)."""
    return [src for _, src in sitenav.nav_pages(sitenav.load_nav(REPO / "mkdocs.yml"), sections_only)]


def mkdocs_build(config: Path, site_dir: Path, environ: dict | None = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in a subprocess, as a developer or CI runs it, with ``environ`` added to its
    environment; a ``SITE_URL`` of the caller's own environment is left out, so that the default is what is built
    unless ``environ`` sets one."""
    env = {**{k: v for k, v in os.environ.items() if k != "SITE_URL"}, "NO_MKDOCS_2_WARNING": "1", **(environ or {})}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site_dir)],
        capture_output=True, text=True, env=env, cwd=config.parent, timeout=600,
    )


def render(text: str, page: str = "layers/toy.md", url: str = "layers/toy/", root: Path = FIXTURE, package: str = "toy"):
    """(html, problems, build) for one page of Markdown against the fixture package."""
    problems: list[str] = []
    build = SiteBuild(Project(root=root, package=package), problems.append)
    build.collect({page: text}, {page: url})
    md = markdown.Markdown(
        extensions=["pymdownx.superfences", "pymdownx.arithmatex", "pymdownx.tabbed"],
        extension_configs={"pymdownx.superfences": {"custom_fences": build.custom_fences()},
                           "pymdownx.arithmatex": {"generic": True}},
    )
    return md.convert(build.prepare_page(page, url, text)), problems, build


class _TableReader(HTMLParser):
    """Each <tr> as a list of cells; a cell holding one link reads `text -> href`."""

    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.hrefs = [], None, []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell, self.hrefs = [], []
        elif tag == "a" and self.cell is not None:
            self.hrefs.append(dict(attrs)["href"])

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            text = "".join(self.cell).strip()
            self.tables[-1][-1].append(f"{text} -> {self.hrefs[0]}" if len(self.hrefs) == 1 else text)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def tables(html: str) -> list[list[str]]:
    """Every table of `html`, each row as its cells joined by ' | '."""
    reader = _TableReader()
    reader.feed(html)
    return [[" | ".join(row) for row in table] for table in reader.tables]
