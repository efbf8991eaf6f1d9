"""The plugin's part for notebooks (option ``notebooks``, the docs folders whose pages get one): each such page as a
notebook (``notebooks/<page>.ipynb``), linked from the top of the page.

Runs after the widgets' part, which ships the engine's pure wheel under ``wheels/``: each notebook's first cell
installs it from ``site_url``. The notebook is made from the page's Markdown as the cross-linker hands it on (inline
values filled in) and its table of contents; the work is in ``notebooks/``.
"""
import hashlib
import json
import posixpath
from html import escape
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.exceptions import PluginError

from ..crosslink.render import relative_url
from ..livewidgets.engine_package import SITE_WHEELS, source_digest
from ..notebooks.notebook import PageSite, ProjectModules, page_notebook

FOLDER = "notebooks"
LINK_TEXT = "Download this page as a notebook"

_build = {}  # state of the current build; reset in on_config and on_files because `mkdocs serve` reuses this module
# page -> (hash of everything its notebook is made from, the notebook's JSON): a `mkdocs serve` rebuild makes and
# validates again only the notebooks of pages that changed (making all of them costs ~0.2-0.7 s, mostly nbformat
# validating every new cell).
_made = {}


def notebook_path(src_uri, sections):
    """``notebooks/layers/layernorm.ipynb`` for ``layers/layernorm.md`` when ``layers/`` is one of ``sections``;
    None for a page without a notebook."""
    return f"{FOLDER}/{src_uri[:-len('.md')]}.ipynb" if src_uri.startswith(sections) else None


def on_config(config, options, root):
    _build.clear()
    _build.update(sections=tuple(folder.rstrip("/") + "/" for folder in options.notebooks), root=root,
                  package=options.package,
                  modules=ProjectModules(Path(options.package).name, options.kinds, options.practice))
    return config


def on_files(files, config):
    wheels = [f for f in files if f.src_uri.startswith(f"{SITE_WHEELS}/") and f.src_uri.endswith(".whl")]
    if len(wheels) != 1:
        raise PluginError(f"notebooks: expected the engine's pure wheel in {SITE_WHEELS}/ (shipped by the widgets' "
                          f"part, which runs before this one), found {[f.src_uri for f in wheels]}")
    _build.update(wheel_url=urljoin(config.site_url, wheels[0].url), files=files, markdown={},
                  # kinds' inputs, exercises' statements and starters
                  engine=source_digest(_build["root"], _build["package"]))
    return files


def on_page_markdown(markdown, page, **kwargs):
    if notebook_path(page.file.src_uri, _build["sections"]):
        _build["markdown"][page.file.src_uri] = markdown
    return markdown


def on_page_content(html, page, config, **kwargs):
    """Write the page's notebook into the site and put the link to it above the title (rendered here, so nothing
    moves when the page's scripts run)."""
    path = notebook_path(page.file.src_uri, _build["sections"])
    if not path:
        return html
    site = PageSite(url=urljoin(config.site_url, page.url), wheel_url=_build["wheel_url"],
                    anchors=[(item.title, item.id) for item in _flat(page.toc)],
                    resolve=lambda target: _absolute(target, page, config))
    src, markdown = page.file.src_uri, _build["markdown"][page.file.src_uri]
    key = hashlib.sha256(json.dumps([markdown, site.url, site.wheel_url, site.anchors, _build["engine"]]).encode())
    made = _made.get(src)
    if made is None or made[0] != key.hexdigest():
        made = _made[src] = key.hexdigest(), _notebook_json(markdown, site, src)
    target = Path(config.site_dir) / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(made[1], encoding="utf-8")
    href, name = escape(relative_url(path, page.url)), escape(posixpath.basename(path))
    return f'<p class="lw-notebook" data-search-exclude><a href="{href}" download="{name}">{LINK_TEXT}</a></p>' + html


def _notebook_json(markdown, site, src_uri):
    import nbformat  # imported once a page needs it: ~0.3 s

    try:
        notebook = page_notebook(markdown, site, _build["modules"])
        nbformat.validate(notebook)
    except (ValueError, nbformat.ValidationError) as error:
        raise PluginError(f"{src_uri}: its notebook: {error}") from None
    return nbformat.v4.writes(notebook)  # nbformat.writes would validate it a second time


def _flat(toc):
    for item in toc:
        yield item
        yield from _flat(item.children)


def _absolute(target, page, config):
    """A link target of the page's Markdown (``softmax.md#eq-x``, ``#anchor``, ``https://...``) as an absolute URL."""
    if "://" in target or target.startswith("mailto:"):
        return target
    path, _, fragment = target.partition("#")
    url = page.url
    if path:  # relative to the page's Markdown file, as mkdocs reads it
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), path))
        file = _build["files"].get_file_from_path(path)
        url = file.url if file else path
    return urljoin(config.site_url, url) + (f"#{fragment}" if fragment else "")
