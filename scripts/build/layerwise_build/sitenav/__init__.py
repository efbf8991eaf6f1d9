"""The page order of the site, read from one place: the nav in mkdocs.yml.

Everything a reader sees in an order (the home page's learning path, the Practice page's list of exercises) is
derived from the nav here, so adding or moving a page is one edit of mkdocs.yml.
"""
import re

import yaml
from mkdocs.utils import meta as front_matter

# ```learning-path``` with an empty body, on a line of its own: replaced by the numbered path
PATH_FENCE = re.compile(r"^(`{3,})learning-path[ \t]*\n\1[ \t]*$", re.M)


class _NavLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without mkdocs: its tags (`!ENV`, `!!python/name:`) are not needed for the nav."""


_NavLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
_NavLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def load_nav(config_path):
    """The ``nav`` of the mkdocs.yml at ``config_path``, as mkdocs would read it."""
    with open(config_path, encoding="utf-8") as file:
        return yaml.load(file, Loader=_NavLoader)["nav"]


class NavError(Exception):
    """A page is missing what the nav-derived lists need; the message names the page and the rule."""


def nav_pages(nav, sections_only=False):
    """Every page of ``nav`` (mkdocs' ``config.nav``), in order; with ``sections_only``, only pages inside a section.

    A section is a nav entry whose value is a list ("Layers", "The whole model"). The entry "Source", the index of
    the source pages that the build appends, is no part of the reading order and is left out.
    """
    def walk(items, depth):
        for item in items:
            title, value = next(iter(item.items())) if isinstance(item, dict) else (None, item)
            if title == "Source":
                continue
            if isinstance(value, list):
                yield from walk(value, depth + 1)
            elif not sections_only or depth > 0:
                yield title, value
    return list(walk(nav or [], 0))


def learning_path(nav, page_texts):
    """The home page's path as a Markdown numbered list: every page inside a nav section, in nav order, each with
    its title and the one-line ``description`` of its front matter (also its meta description for search engines).
    Links are relative to the docs folder, as written on the home page."""
    lines = []
    for number, (title, src) in enumerate(nav_pages(nav, sections_only=True), start=1):
        _, meta = front_matter.get_data(page_texts.get(src, ""))
        description = str(meta.get("description", "")).strip()
        if not description:
            raise NavError(f"page '{src}' is on the learning path (it is in a section of mkdocs.yml's nav) but its "
                           "front matter has no `description:`, the one line the home page shows beside its title")
        lines.append(f"{number}. [{title}]({src}). {description}")
    return "\n".join(lines)


def fill_learning_path(markdown, nav, page_texts):
    """``markdown`` with its ```` ```learning-path ```` fence replaced by :func:`learning_path`."""
    return PATH_FENCE.sub(lambda _: learning_path(nav, page_texts), markdown)


def nav_position(nav):
    """A sort key for page paths: their place in the nav (pages not in it last, by name)."""
    order = {src: i for i, (_, src) in enumerate(nav_pages(nav))}
    return lambda src: (order.get(src, len(order)), src)
