"""mkdocs hook: every layer and model page as a notebook (``notebooks/<page>.ipynb``), linked from the top of the page.

Listed under ``hooks:`` in mkdocs.yml after the widgets' hook, which ships the engine's pure wheel under ``wheels/``:
each notebook's first cell installs it from ``site_url``. The notebook is made from the page's Markdown as the
cross-linker hands it on (inline values filled in) and its table of contents; the work is in ``scripts/notebooks/``.
"""
import hashlib
import posixpath
import sys
from html import escape
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).resolve().parent))  # scripts/ is not a package on sys.path

from crosslink.render import relative_url  # noqa: E402
from notebooks.notebook import PageSite, page_notebook  # noqa: E402

SECTIONS = ("layers/", "model/")  # the pages that get a notebook: every layer page and every model page
FOLDER = "notebooks"
WHEEL = "-py3-none-any.whl"  # the pure wheel's file name ends so; the Pyodide one is -cp313-none-any.whl
LINK_TEXT = "Download this page as a notebook"

_build = {}  # state of the current build; reset in on_files because `mkdocs serve` reuses this module
# Hashes of notebooks nbformat already validated: a `mkdocs serve` rebuild does not validate unchanged ones again.
_validated = set()


def notebook_path(src_uri):
    """``notebooks/layers/layernorm.ipynb`` for ``layers/layernorm.md``; None for a page without a notebook."""
    return f"{FOLDER}/{src_uri[:-len('.md')]}.ipynb" if src_uri.startswith(SECTIONS) else None


def on_files(files, config):
    wheels = [f for f in files if f.src_uri.startswith("wheels/") and f.src_uri.endswith(WHEEL)]
    if len(wheels) != 1:
        raise PluginError(f"notebooks: expected the engine's pure wheel under wheels/ (shipped by the widgets' hook, "
                          f"listed before this one), found {[f.src_uri for f in wheels]}")
    _build.clear()
    _build.update(wheel_url=urljoin(config.site_url, wheels[0].url), files=files, markdown={})
    return files


def on_page_markdown(markdown, page, **kwargs):
    if notebook_path(page.file.src_uri):
        _build["markdown"][page.file.src_uri] = markdown
    return markdown


def on_page_content(html, page, config, **kwargs):
    """Write the page's notebook into the site and put the link to it above the title (rendered here, so nothing
    moves when the page's scripts run)."""
    path = notebook_path(page.file.src_uri)
    if not path:
        return html
    import nbformat  # imported once a page needs it: ~0.3 s

    site = PageSite(url=urljoin(config.site_url, page.url), wheel_url=_build["wheel_url"],
                    anchors=[(item.title, item.id) for item in _flat(page.toc)],
                    resolve=lambda target: _absolute(target, page, config))
    try:
        notebook = page_notebook(_build["markdown"][page.file.src_uri], site)
    except ValueError as error:
        raise PluginError(f"{page.file.src_uri}: its notebook: {error}") from None
    text = nbformat.v4.writes(notebook)  # the JSON, without nbformat.writes' validation: done below, once
    digest = hashlib.sha256(text.encode()).hexdigest()
    if digest not in _validated:
        nbformat.validate(notebook)  # raises naming what is wrong
        _validated.add(digest)
    target = Path(config.site_dir) / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    href = relative_url(path, page.url)
    link = (f'<p class="lw-notebook" data-search-exclude><a href="{escape(href)}" download="{escape(posixpath.basename(path))}">'
            f'{LINK_TEXT}</a></p>')
    return link + html


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
