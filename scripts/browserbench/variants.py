"""Variants of a built page for A/B rows, each written beside the page at the same folder depth so its relative
URLs still resolve: the page minus mkdocs-material's bundle, minus the widgets' scripts and CSS (the pre-rendered
numbers stay); and a bare page whose worker only loads Pyodide + NumPy."""
import re
from pathlib import Path

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare</title><script>
const worker = new Worker("worker.js");
worker.onmessage = (e) => { window.bareReady = performance.now(); window.bareError = e.data.error; };
</script>"""
BARE_WORKER = """importScripts("../pyodide/pyodide.js");
loadPyodide({indexURL: "../pyodide/"}).then(async (py) => { await py.loadPackage("numpy");
  py.runPython("import numpy"); postMessage({}); }).catch((e) => postMessage({error: String(e)}));"""

THEME_BUNDLE = re.compile(r'<script src="[^"]*/bundle\.[^"]*"></script>')
WIDGET_ASSETS = re.compile(r'<script[^>]*src="[^"]*assets/layerwise/[^"]*"[^>]*></script>'  # classic or module
                           r'|<link[^>]*href="[^"]*assets/layerwise/[^"]*"[^>]*>')  # widgets.css, module preloads

# name -> [(pattern, replacement)] applied to the page's HTML
EDITS = {
    "without-theme-js": [(THEME_BUNDLE, "")],
    "without-widgets": [(WIDGET_ASSETS, "")],
}


def add_bare_page(root):
    """Write ``bare/``: a page whose only work is a worker loading Pyodide + NumPy from the site's ``pyodide/``."""
    (root / "bare").mkdir()
    (root / "bare" / "index.html").write_text(BARE_PAGE)
    (root / "bare" / "worker.js").write_text(BARE_WORKER)
    return "bare/"


def add_variant(root, page_path, name):
    """Write the page at ``page_path`` changed as ``name`` says; return the variant's site path. A variant that
    changes nothing would measure nothing: that stops the benchmark."""
    html = (Path(root) / page_path / "index.html").read_text(encoding="utf-8")
    changed = html
    for pattern, replacement in EDITS[name]:
        changed = pattern.sub(replacement, changed)
    if changed == html:
        raise ValueError(f"variant {name!r} of {page_path} changes nothing: the page's markup no longer matches it")
    path = name + "/" + page_path.split("/", 1)[1]  # replaces the first folder: same depth, same relative URLs
    (Path(root) / path).mkdir(parents=True, exist_ok=True)
    (Path(root) / path / "index.html").write_text(changed, encoding="utf-8")
    return path
