"""The plugin's part for the live widgets (options ``widgets`` and ``kinds``): pre-renders ```widget fences with
the kinds' module, ships the browser code, the package's wheel with the site's pyodide-lock.json, its pure wheel for
``pip install`` (``wheels/``), and (with ``pyodide_dist`` or ``PYODIDE_DIST``) a self-hosted Pyodide into the built
site.

The work is done in ``livewidgets/``; the parts after this one use its wheel, engine-config.js and worker, and
name the modules their workers import through :func:`worker_module`.
"""
import importlib
import json
import os
import sys
from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from ..livewidgets import engine_package, fences, pyodide_dist, render, snapshot

ASSETS = "assets/layerwise"  # where widgets/ and the engine package land in the site
# ES modules, each with one job (widgets/README.md); widgets.js is the entry, the others its imports.
BROWSER_MODULES = ("widgets.js", "widget.js", "widget-engine.js", "engine-client.js", "widget-state.js",
                   "widget-render.js", "widget-storage.js", "widget-keys.js", "widget-help.js", "widget-announce.js",
                   "widget-pause.js", "cells.js")
BROWSER_FILES = BROWSER_MODULES + ("worker.js", "engine-loader.js", "widgets.css")  # the workers importScripts the loader
# generated: where Pyodide and the site's lock file are, the package to load and the modules the workers import,
# the readiness timeout
CONFIG_SCRIPT = "engine-config.js"
READY_TIMEOUT_MS = 60_000  # a .wasm served with a wrong MIME type makes loadPyodide hang without an error
PACKAGE_CACHE = Path(".cache") / "layerwise-engine"  # under the project's root
SNAPSHOT_CACHE = Path(".cache") / "layerwise-snapshot"
# The self-hosted runtime seen from the engine's folder in the site (ASSETS/engine-<key>/): its lock file names
# NumPy by this relative path, so the site works under any origin and path.
SELF_HOSTED_FROM_ENGINE = "../" * (ASSETS.count("/") + 2) + pyodide_dist.SITE_FOLDER + "/"

_build = {}  # state of the current build; reset in on_config because `mkdocs serve` reuses this module


_before_build = {}  # the package's modules this process had imported before the first build, put back after it


def _take_package_modules(name):
    names = [module for module in sys.modules if module == name or module.startswith(name + ".")]
    return {module: sys.modules.pop(module) for module in names}


def _import_fresh(root, module):
    """``module`` imported with the project's root first on the path for this one import: later imports of the
    package's modules go through the package's own ``__path__``."""
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(root))


def built():
    """What this build made, for the parts that list it (offline): ``dist`` (the self-hosted Pyodide folder or
    None), ``version``, ``package`` (the folder of the engine's wheel and lock), ``engine_folder`` (where the site
    serves them) and ``snapshot`` (the interpreter's memory snapshot file)."""
    return {"dist": _build["dist"], "version": _build["version"], "package": _build["package"],
            "engine_folder": f"{ASSETS}/{_engine_folder()}", "snapshot": _build["snapshot"]}


def _engine_folder():
    return f"engine-{_build['key']}"  # named by content: a changed engine is never served from a cache


def worker_module(role, module):
    """Name in engine-config.js a module a worker imports (``inside``: ``engine.inside.analysis``); the parts after
    this one call it from their ``on_config``, before this part writes the file in ``on_files``."""
    _build["modules"][role] = module


def on_config(config, options, root):
    # `mkdocs serve`: pre-render with the package as it is now, not as first imported
    name = Path(options.package).name
    taken = _take_package_modules(name)
    if not _before_build:
        _before_build.update(taken)
    kinds = _import_fresh(root, options.kinds)

    version = pyodide_dist.pinned_version(root)
    environ = os.environ if options.pyodide_dist is None else {"PYODIDE_DIST": options.pyodide_dist}
    try:
        dist = pyodide_dist.self_hosted_dist(version, environ)
    except pyodide_dist.PyodideDistError as error:
        raise PluginError(str(error)) from None
    # The lock file starts from the runtime's own: the self-hosted folder's, or the npm package's (the same release
    # as the CDN's, whose NumPy entry it then points at by absolute URL).
    runtime = dist or root / "node_modules" / "pyodide"
    if not (runtime / engine_package.LOCK).is_file():
        raise PluginError(f"no {engine_package.LOCK} in {runtime}: run `npm ci` (scripts/dev.sh does it)")
    runtime_url = SELF_HOSTED_FROM_ENGINE if dist else pyodide_dist.cdn_url(version)
    try:
        package, key = engine_package.build(root, options.package, runtime / engine_package.LOCK, runtime_url,
                                            root / PACKAGE_CACHE)
        memory = snapshot.build(root, runtime, root / SNAPSHOT_CACHE)
    except (engine_package.PackagingError, snapshot.SnapshotError) as error:
        raise PluginError(str(error)) from None
    _build.clear()
    _build.update(kinds=kinds, name=name, dist=dist, version=version, package=package, key=key, snapshot=memory,
                  page=None, counts={}, browser=Path(options.widgets), modules={"kinds": options.kinds})

    # Added here, not in mkdocs.yml, so the list lives beside the files it names. The scripts go first: the engine
    # (seconds to load) then starts before other scripts' page work. Every module gets its own tag, not only the
    # entry, so the browser fetches them all at once instead of discovering the imports one level at a time.
    scripts = [f"{ASSETS}/{CONFIG_SCRIPT}"] + [_module_script(f"{ASSETS}/{name}") for name in BROWSER_MODULES]
    paths = [str(s) for s in scripts]
    config.extra_javascript[:] = scripts + [e for e in config.extra_javascript if str(e) not in paths]
    if f"{ASSETS}/widgets.css" not in [str(e) for e in config.extra_css]:
        config.extra_css.append(f"{ASSETS}/widgets.css")
    fences.register(config, "widget", _format_widget, _validate_widget)
    return config


def _module_script(path):
    script = ExtraScriptValue(path)
    script.type = "module"
    return script


def on_page_markdown(markdown, page, **kwargs):
    _build["page"] = page.file.src_uri
    _build["counts"] = {}
    return markdown


def _validate_widget(language, inputs, options, attrs, md):
    fences.check_attributes(_build["page"], "widget", inputs, required="kind", allowed=("kind", "id"))
    options.update(inputs)
    return True


def _format_widget(source, language, class_name, options, md, **kwargs):
    kind = options["kind"]
    widget_id = options.get("id")
    if not widget_id:  # <kind>-<n>, counting the widgets of that kind without an id
        counts = _build["counts"]
        counts[kind] = counts.get(kind, 0) + 1
        widget_id = f"{kind}-{counts[kind]}"
    where = f"widget {widget_id!r} (kind {kind!r})"
    try:
        overrides = json.loads(source) if source.strip() else {}
    except json.JSONDecodeError as error:
        _fail(f"{where}: the body is not valid JSON: {error}")
    if not isinstance(overrides, dict):
        _fail(f"{where}: the body must be a JSON object of inputs, got {type(overrides).__name__}")
    try:
        return render.widget_html(_build["kinds"], kind, widget_id, overrides)
    except ValueError as error:  # LayerwiseError from the kind framework or the engine
        _fail(f"{where}: {error}")


def _fail(message):
    fences.fail(_build["page"], message)


def on_files(files, config):
    for name in BROWSER_FILES:
        files.append(File.generated(config, f"{ASSETS}/{name}", abs_src_path=str(_build["browser"] / name)))
    engine_folder = _engine_folder()
    for path in sorted(p for p in _build["package"].iterdir() if p.is_file()):  # the compiled wheel and pyodide-lock.json
        files.append(File.generated(config, f"{ASSETS}/{engine_folder}/{path.name}", abs_src_path=str(path)))
    wheel = engine_package.pure_wheel(_build["package"])
    files.append(File.generated(config, f"{engine_package.SITE_WHEELS}/{wheel.name}", abs_src_path=str(wheel)))
    files.append(File.generated(config, f"{ASSETS}/{_build['snapshot'].name}", abs_src_path=str(_build["snapshot"])))
    pyodide_url = f"../../{pyodide_dist.SITE_FOLDER}/" if _build["dist"] else pyodide_dist.cdn_url(_build["version"])
    engine_config = {  # URLs relative to this file's folder
        "pyodideVersion": _build["version"],
        "pyodide": pyodide_url,
        "lockFile": f"{engine_folder}/{engine_package.LOCK}",
        "distribution": engine_package.distribution(_build["package"]),  # what the workers' loadPackage asks for
        "snapshot": _build["snapshot"].name,  # the interpreter's memory, restored instead of starting CPython
        "modules": _build["modules"],
        "readyTimeoutMs": READY_TIMEOUT_MS,
    }
    # A script, not JSON to fetch: the worker can start the moment a widget is seen, even while the page is busy.
    script = f"window.Layerwise = Object.assign(window.Layerwise || {{}}, {{engineConfig: {json.dumps(engine_config)}}});\n"
    files.append(File.generated(config, f"{ASSETS}/{CONFIG_SCRIPT}", content=script))
    return files


def on_shutdown():
    """Give a process that builds in-process (tests, benchmarks) its own package modules back: its functions import
    kinds lazily, and a kind imported into the build's fresh package would not be one of its kinds."""
    _take_package_modules(_build["name"])
    sys.modules.update(_before_build)
    _before_build.clear()


def on_post_build(config):
    if _build["dist"]:
        pyodide_dist.copy_dist(_build["dist"], config.site_dir, engine_package.engine_entry(_build["package"])["depends"])


def on_serve(server, config, builder):
    server.watch(str(_build["browser"]))  # the engine's folder is in mkdocs.yml's watch: list
    return server
