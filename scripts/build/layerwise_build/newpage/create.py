"""Write a new layer page's files from templates/ and place the page in mkdocs.yml's nav."""
import os
import re
from pathlib import Path

from .. import sitenav

TEMPLATES = Path(__file__).resolve().parent / "templates"
# template -> the file it becomes ({name}: the module name; {folder}: the docs folder of the page it follows)
FILES = {
    "engine.py.tmpl": "engine/{name}.py",
    "engine_test.py.tmpl": "tests/engine/test_{name}_layer.py",  # test basenames are unique across tests/
    "kind.py.tmpl": "engine/examples/{name}.py",
    "kind_test.py.tmpl": "tests/examples/test_{name}.py",
    "exercise.py.tmpl": "engine/exercises/{name}_forward.py",
    "learner_programs.py.tmpl": "tests/exercises/learner_programs/{name}.py",
    "page_test.py.tmpl": "tests/pages/test_{name}_page.py",
    "page.md.tmpl": "docs/{folder}/{name}.md",
}
NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


class ScaffoldError(Exception):
    """The page cannot be made as asked; the message says why and what to pass instead."""


def create(root, name, title, after):
    """Write the files of page ``name`` (a module name, e.g. ``swiglu``) titled ``title``, placed in the nav
    right after the page ``after`` (e.g. ``layers/activations.md``). Returns the paths written, relative to root."""
    root = Path(root)
    nav = sitenav.nav_pages(sitenav.load_nav(root / "mkdocs.yml"))
    pages = [src for _, src in nav]
    _check(root, name, title, after, pages)
    folder = Path(after).parent.as_posix()
    page = f"{folder}/{name}.md"
    position = pages.index(after)
    following = nav[position + 1] if position + 1 < len(nav) else None
    words = {
        "name": name, "title": title, "page": page,
        "after_title": nav[position][0], "after_link": os.path.relpath(after, folder),
        "next_title": following[0] if following else "Home",
        "next_link": os.path.relpath(following[1] if following else "index.md", folder),
    }
    written = []
    for template, target in FILES.items():
        path = root / target.format(name=name, folder=folder)
        text = (TEMPLATES / template).read_text(encoding="utf-8")
        for key, value in words.items():
            text = text.replace("{{" + key + "}}", value)
        path.write_text(text, encoding="utf-8")
        written.append(path.relative_to(root).as_posix())
    _add_to_nav(root / "mkdocs.yml", after, title, page)
    _link_from_previous(root / "docs" / after, title, name)
    return written + ["mkdocs.yml", f"docs/{after}"]


def _check(root, name, title, after, pages):
    if not NAME.match(name):
        raise ScaffoldError(f"NAME {name!r} must be a Python module name in lower case (letters, digits, _)")
    if not title.strip():
        raise ScaffoldError("the title must not be empty")
    if after not in pages:
        raise ScaffoldError(f"--after {after!r} is not a page of mkdocs.yml's nav; pages: {', '.join(pages)}")
    for target in FILES.values():
        path = root / target.format(name=name, folder=Path(after).parent.as_posix())
        if path.exists():
            raise ScaffoldError(f"{path.relative_to(root).as_posix()} exists already: choose another NAME")


def _add_to_nav(config, after, title, page):
    """Insert ``- title: page`` after the nav line of ``after``, as a text edit so comments and layout stay."""
    text = config.read_text(encoding="utf-8")
    line = re.search(rf"^(?P<indent>[ \t]*)- [^\n]*:[ \t]*{re.escape(after)}[ \t]*$", text, re.M)
    if not line:
        raise ScaffoldError(f"mkdocs.yml: no nav line of the form '- Title: {after}' to insert the page after")
    entry = f"\n{line['indent']}- {title}: {page}"
    config.write_text(text[:line.end()] + entry + text[line.end():], encoding="utf-8")


def _link_from_previous(previous, title, name):
    """The page before now leads to the new one: its Next section starts with a link to it, a place to fill."""
    text = previous.read_text(encoding="utf-8")
    heading = re.search(r"^## Next[ \t]*\n\n", text, re.M)
    if not heading:
        return  # a page without a Next section (not a layer page): nothing promises the order there
    link = (f"[{title}]({name}.md) <!-- FILL-IN next-from-{previous.stem}: one sentence on what the new page "
            f"adds; the old next page is now the one after it --><!-- END FILL-IN -->\n\n")
    previous.write_text(text[:heading.end()] + link + text[heading.end():], encoding="utf-8")
