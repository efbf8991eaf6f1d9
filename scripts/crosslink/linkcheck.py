"""After the build: every internal link of the built HTML must reach an existing file and anchor, and nothing
may be loaded from another origin (mkdocs validates Markdown links only; the directives write raw HTML).
"""
from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

_NOT_LOADED_RELS = {"canonical", "alternate", "author", "license"}
_LOADED = {("link", "href"), ("script", "src"), ("img", "src"), ("source", "src"), ("iframe", "src")}


class _PageParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, url)

    def handle_starttag(self, tag, attrs):
        if tag == "link" and dict(attrs).get("rel") in _NOT_LOADED_RELS:
            attrs = [(n, v) for n, v in attrs if n != "href"]  # names a URL, loads nothing
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif (tag, name) in _LOADED or (tag == "a" and name == "href"):
                self.links.append((tag, name, value))


def parse_page(path: Path) -> _PageParser:
    parser = _PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _target_file(site: Path, page: Path, url_path: str) -> Path:
    """The built file a URL path points at; absolute paths (the 404 page uses them) start at the site root."""
    base = "" if url_path.startswith("/") else page.parent.relative_to(site).as_posix()
    joined = posixpath.normpath(posixpath.join(base, unquote(url_path).lstrip("/"))).lstrip("/")
    target = site / joined
    return target / "index.html" if target.is_dir() else target


def check_site(site: Path, allowed_origins: tuple[str, ...] = ()) -> list[str]:
    """Problems found, each naming the page, the link and what is missing."""
    pages = {p: parse_page(p) for p in sorted(site.rglob("*.html"))}
    problems = []
    for page, parsed in pages.items():
        name = page.relative_to(site).as_posix()
        for tag, attribute, url in parsed.links:
            parts = urlsplit(url)
            if parts.scheme in ("mailto", "javascript", "data", "blob"):
                continue
            if parts.scheme or parts.netloc:
                origin = f"{parts.scheme}://{parts.netloc}"
                if tag != "a" and origin not in allowed_origins:
                    problems.append(f"page '{name}' loads {url} from another origin ({tag} {attribute})")
                continue
            target = _target_file(site, page, parts.path) if parts.path else page
            if not target.is_file():
                problems.append(f"page '{name}' links to '{url}', which is not a file of the site")
                continue
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse_page(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"page '{name}' links to '{url}' but "
                                    f"'{target.relative_to(site).as_posix()}' has no anchor '#{parts.fragment}'")
    return problems
