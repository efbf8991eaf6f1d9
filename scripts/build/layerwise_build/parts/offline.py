"""The plugin's part for reading offline (option ``offline: true``): the site installable and kept by a service
worker after one visit, its widgets, exercises and trainer live with the network off.

Writes the web app manifest and its icons (``offline/webapp.py``, ``offline/icons.py``), links them from every
page's head with the palettes' theme colours, ships ``offline.js`` (which registers the worker once the engine is
live and the page idle, and says in the footer what is kept), and after the build writes ``sw.js`` at the site's
root: Workbox's precaching, bundled by esbuild (``practice/bundle.py``), after the list of every file of this build
with its revision and the build's key (``offline/precache.py``).

Workbox rather than caching written by hand: its precaching already does what is easy to get wrong here (a new
build's files downloaded beside the old ones and swapped in only when the new worker takes over, unchanged files
not fetched again, the old build's deleted, cross-origin runtime files fetched with CORS, folder URLs mapped to
index.html) and is maintained against browsers' changes. Under `mkdocs serve` the worker is a removing one: an
author sees every edit, and a worker left at the same origin by a built site is taken away.
Runs last: it lists the files every other part wrote.
"""
import json
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from ..livewidgets import engine_package, pyodide_dist
from ..offline import precache, webapp
from ..practice import bundle
from . import widgets as widgets_part

ASSETS = "assets/layerwise"
PAGE_SCRIPT = "offline.js"
WORKER_ENTRY = "offline-sw.js"  # in the widgets' folder: bundled with Workbox into the site's sw.js
WORKER_CACHE = Path(".cache") / "layerwise-offline-worker"  # under the project's root
WORKER_LICENCES = "sw.licenses.txt"
# Under `mkdocs serve`: installs at once, deletes what a built site's worker kept at this origin, unregisters and
# reloads the pages it controlled, so they come from the server again.
REMOVING_WORKER = """// mkdocs serve: nothing is kept offline while the pages are edited (layerwise_build/parts/offline.py).
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  await Promise.all((await caches.keys()).map((name) => caches.delete(name)));
  await self.registration.unregister();
  for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
})()));
"""

_build = {}  # state of the current build; reset in on_config because `mkdocs serve` reuses this module
_serving = {"on": False}  # set by on_startup: `mkdocs serve` (live edits) or a build


def on_startup(command):
    _serving["on"] = command == "serve"


def on_config(config, options, root):
    worker = None
    if not _serving["on"]:
        try:
            worker = bundle.build_bundle(root, Path(options.widgets) / WORKER_ENTRY, root / WORKER_CACHE,
                                         name=precache.WORKER, fmt="iife")
        except bundle.BundleError as error:
            raise PluginError(str(error)) from None
    try:
        colours = webapp.theme_colours(config.theme.dirs, config.theme.get("palette"))
    except webapp.ThemeColourError as error:
        raise PluginError(str(error)) from None
    _build.clear()
    _build.update(worker=worker, colours=colours, widgets=Path(options.widgets),
                  left_out=(f"source/{options.tests}/",))  # the tests' source pages (offline/precache.py)
    script = ExtraScriptValue(f"{ASSETS}/{PAGE_SCRIPT}")
    script.type = "module"
    if str(script) not in [str(e) for e in config.extra_javascript]:
        config.extra_javascript.append(script)
    return config


def on_files(files, config):
    files.append(File.generated(config, f"{ASSETS}/{PAGE_SCRIPT}", abs_src_path=str(_build["widgets"] / PAGE_SCRIPT)))
    manifest = webapp.manifest(config.site_name, config.site_description, config.site_url, _build["colours"])
    files.append(File.generated(config, webapp.MANIFEST, content=json.dumps(manifest, indent=1)))
    for path, png in webapp.icon_files(_build["colours"]).items():
        files.append(File.generated(config, path, content=png))
    if _build["worker"]:
        licences = bundle.licences_path(_build["worker"])
        files.append(File.generated(config, f"{ASSETS}/{WORKER_LICENCES}", abs_src_path=str(licences)))
    return files


def _with_head_tags(output, manifest_url):
    head = output.find("</head>")
    if head < 0:
        return output
    tags = webapp.head_tags(manifest_url, _build["colours"], "remove" if _serving["on"] else "keep")
    return output[:head] + tags + output[head:]


def on_post_page(output, page, config):
    return _with_head_tags(output, get_relative_url(webapp.MANIFEST, page.url))


def on_post_template(output, template_name, config):
    """The theme's static pages (404.html, served at any address, so linked from the site's root path)."""
    if not template_name.endswith(".html"):
        return output
    return _with_head_tags(output, (urlsplit(config.site_url or "/").path or "/") + webapp.MANIFEST)


def on_post_build(config):
    site = Path(config.site_dir)
    if not _build["worker"]:
        (site / precache.WORKER).write_text(REMOVING_WORKER, encoding="utf-8")
        return
    widgets = widgets_part.built()
    entries = precache.site_entries(site, _build["left_out"])
    if not widgets["dist"]:  # the runtime from the CDN: kept by URL, fetched with CORS
        lock = site / widgets["engine_folder"] / engine_package.LOCK
        packages = engine_package.engine_entry(widgets["package"])["depends"]
        entries += precache.cdn_entries(pyodide_dist.cdn_url(widgets["version"]), lock, packages)
    snapshot = f"{widgets_part.ASSETS}/{widgets['snapshot'].name}"
    # named by the pinned version or by content: the same URL always holds the same bytes
    unchanging = (f"{pyodide_dist.SITE_FOLDER}/", f"{widgets['engine_folder']}/", snapshot,
                  pyodide_dist.cdn_url(widgets["version"]))
    script = precache.worker_script(entries, snapshot, unchanging, _build["worker"].read_text(encoding="utf-8"))
    (site / precache.WORKER).write_text(script, encoding="utf-8")
