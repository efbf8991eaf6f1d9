"""After the build: every internal link of the built HTML must reach an existing file and anchor, and nothing
may be loaded from another origin (mkdocs validates Markdown links only; the directives write raw HTML).

Regular expressions rather than an HTML parser: the pages are mkdocs' own well-formed output, and the source
pages hold tens of thousands of tags, which a full parser would spend seconds on.
"""
from __future__ import annotations

import posixpath
import re
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

_TAG = re.compile(r"<(a|link|script|img|source|iframe)\s([^>]*)>", re.S)
_URL_ATTR = re.compile(r'\b(href|src)="([^"]*)"')
_ID = re.compile(r'\b(?:id|name)="([^"]*)"')
_NOT_LOADED_RELS = ("canonical", "alternate", "author", "license")


def page_ids(html: str) -> set[str]:
    return {unescape(i) for i in _ID.findall(html)}


def page_links(html: str) -> list[tuple[str, str, str]]:
    """(tag, attribute, url) of every link or loaded resource."""
    links = []
    for tag, attrs in _TAG.findall(html):
        if tag == "link" and re.search(rf'\brel="({"|".join(_NOT_LOADED_RELS)})"', attrs):
            continue  # names a URL, loads nothing
        for attribute, url in _URL_ATTR.findall(attrs):
            links.append((tag, attribute, unescape(url)))
    return links


def _target_file(site: Path, page: Path, url_path: str, base_path: str) -> Path | None:
    """The built file a URL path points at; absolute paths (the 404 page uses them) start at ``base_path``, the
    site's own path on its server (``/some/path/`` for a site_url of https://example.org/some/path/), and any other
    absolute path is outside the site (None)."""
    if url_path.startswith("/"):
        if not url_path.startswith(base_path):
            return None
        base, url_path = "", url_path[len(base_path):]
    else:
        base = page.parent.relative_to(site).as_posix()
    joined = posixpath.normpath(posixpath.join(base, unquote(url_path))).lstrip("/")
    target = site / joined
    return target / "index.html" if target.is_dir() else target


def check_site(site: Path, allowed_origins: tuple[str, ...] = (), base_path: str = "/") -> list[str]:
    """Problems found, each naming the page, the link and what is missing; ``base_path`` is the path of site_url."""
    texts = {p: p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}
    ids: dict[Path, set[str]] = {}
    problems = []
    for page, html in texts.items():
        name = page.relative_to(site).as_posix()
        for tag, attribute, url in page_links(html):
            parts = urlsplit(url)
            if parts.scheme in ("mailto", "javascript", "data", "blob"):
                continue
            if parts.scheme or parts.netloc:
                origin = f"{parts.scheme}://{parts.netloc}"
                if tag != "a" and origin not in allowed_origins:
                    problems.append(f"page '{name}' loads {url} from another origin ({tag} {attribute})")
                continue
            target = _target_file(site, page, parts.path, base_path) if parts.path else page
            if target is None or not target.is_file():
                problems.append(f"page '{name}' links to '{url}', which is not a file of the site")
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = page_ids(texts.get(target) or target.read_text(encoding="utf-8"))
                if unquote(parts.fragment) not in ids[target]:
                    problems.append(f"page '{name}' links to '{url}' but "
                                    f"'{target.relative_to(site).as_posix()}' has no anchor '#{parts.fragment}'")
    return problems
