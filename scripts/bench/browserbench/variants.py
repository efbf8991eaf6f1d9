"""Variants of a built page for A/B rows, each written beside the page at the same folder depth so its relative
URLs still resolve: the page minus mkdocs-material's bundle, minus the widgets' scripts and CSS (the pre-rendered
numbers stay), minus its own handling of moves within the page; a bare page whose worker only loads Pyodide + NumPy
(or restores the interpreter from the site's memory snapshot first); a bare edit page: one cell, the site's own
engine client and worker and the same request as a widget, the answer written to one text node (the floor of
edit -> updated DOM); and the page with its article cut to its title and one widget (the floor of a page that shows
that widget: the theme, the scripts and the widget itself, none of the text)."""
import html
import json
import re
from pathlib import Path

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare</title><script>
const worker = new Worker("worker.js");
worker.onmessage = (e) => { window.bareReady = performance.now(); window.bareError = e.data.error; };
</script>"""
BARE_WORKER = """importScripts("../pyodide/pyodide.js");
loadPyodide({indexURL: "../pyodide/"}).then(async (py) => { await py.loadPackage("numpy");
  py.runPython("import numpy"); postMessage({}); }).catch((e) => postMessage({error: String(e)}));"""
# The same, restoring the interpreter from the site's memory snapshot with the site's own fetchSnapshot.
BARE_SNAPSHOT_WORKER = """importScripts("../pyodide/pyodide.js", "../assets/layerwise/engine-loader.js");
loadPyodide({indexURL: "../pyodide/", _loadSnapshot: fetchSnapshot("../assets/layerwise/%s")}).then(async (py) => {
  await py.loadPackage("numpy"); py.runPython("import numpy"); postMessage({}); })
  .catch((e) => postMessage({error: String(e)}));"""

# One text box in the markup the edit benchmark types into (browserbench/edits.py), the site's own engine client
# (widget-engine.js: its worker, its messages, its request times in engine.lastEdit), and the widget's own request:
# the kind and every input's values, the edited one in its first cell. Each answer's numbers go into one <pre>, and
# the same "layerwise:rendered" event as a widget's says so.
BARE_EDIT_PAGE = """<!doctype html><meta charset="utf-8"><title>bare edit</title>
<div class="lw-widget" data-kind="{kind}"><figure class="lw-input"><input class="lw-cell" value="{value}"></figure>
<pre></pre></div>
<script src="{assets}engine-config.js"></script>
<script type="module">
import {{ compute, engine, startEngine }} from "{assets}widget-engine.js";
const values = {values}, kind = "{kind}", edited = "{edited}";
Layerwise.engine = engine;
startEngine();
const input = document.querySelector("input"), out = document.querySelector("pre");
input.addEventListener("input", async () => {{
  const number = Number(input.value);
  if (input.value.trim() === "" || !Number.isFinite(number)) return;
  let row = values[edited];
  while (Array.isArray(row[0])) row = row[0];
  row[0] = number;
  const sent = performance.now();
  const result = await compute({{ key: "bare", kind, values, onCheck: () => {{}} }});
  out.textContent = result.blocks.map((b) => b.cells.flat().join(" ")).join("\\n");
  out.dispatchEvent(new CustomEvent("layerwise:rendered", {{ bubbles: true, detail: {{ ms: performance.now() - sent }} }}));
}});
</script>"""

# a script and its preload (layerwise_build/pagescripts.py)
THEME_BUNDLE = re.compile(r'<(?:script|link)[^>]*(?:src|href)="[^"]*/bundle\.[^"]*"[^>]*>(?:</script>)?')
WIDGET_ASSETS = re.compile(r'<script[^>]*src="[^"]*assets/layerwise/[^"]*"[^>]*></script>'  # classic or module
                           r'|<link[^>]*href="[^"]*assets/layerwise/[^"]*"[^>]*>')  # widgets.css, module preloads

# The page's own handling of moves within it (overrides/main.html's popstate listener, docs/assets/jumps.js): without
# them, mkdocs-material's instant navigation takes a same-page link as it did before
WITHIN_PAGE_POPSTATE = re.compile(r'\n *// A move within the page .*?\n *\}\);\n', re.S)
JUMPS = re.compile(r'<(?:script|link)[^>]*(?:src|href)="[^"]*assets/jumps\.js"[^>]*>(?:</script>)?')

# name -> [(pattern, replacement)] applied to the page's HTML
EDITS = {
    "without-theme-js": [(THEME_BUNDLE, "")],
    "without-widgets": [(WIDGET_ASSETS, "")],
    "without-jumps": [(WITHIN_PAGE_POPSTATE, "\n"), (JUMPS, "")],
}


def add_bare_page(root, snapshot=None):
    """Write ``bare/``: a page whose only work is a worker loading Pyodide + NumPy from the site's ``pyodide/``; or,
    with ``snapshot`` (the name of the site's memory snapshot in assets/layerwise/), ``bare-snapshot/``, whose worker
    restores the interpreter from it first, as the site's workers do."""
    folder = "bare-snapshot" if snapshot else "bare"
    (root / folder).mkdir()
    (root / folder / "index.html").write_text(BARE_PAGE)
    (root / folder / "worker.js").write_text(BARE_SNAPSHOT_WORKER % snapshot if snapshot else BARE_WORKER)
    return folder + "/"


def add_bare_edit_page(root, page_path, kind):
    """Write ``bare-edit/<kind>/``: the bare edit page for the first ``kind`` widget of the page at ``page_path``."""
    page = (Path(root) / page_path / "index.html").read_text(encoding="utf-8")
    tag = re.search(rf'<div class="lw-widget"[^>]*data-kind="{re.escape(kind)}"[^>]*>', page).group(0)
    attribute = lambda name: html.unescape(re.search(rf'{name}="([^"]*)"', tag).group(1))
    spec, values = json.loads(attribute("data-spec")), json.loads(attribute("data-start"))
    edited = spec["inputs"][0]["name"]
    first = values[edited]
    while isinstance(first, list):
        first = first[0]
    path = f"bare-edit/{kind}/"
    (Path(root) / path).mkdir(parents=True)
    (Path(root) / path / "index.html").write_text(BARE_EDIT_PAGE.format(
        kind=kind, value=first, values=json.dumps(values), edited=edited, assets="../../assets/layerwise/"))
    return path


ARTICLE = re.compile(r'(<article class="md-content__inner md-typeset">).*?(</article>)', re.S)
TITLE = re.compile(r"<h1[^>]*>.*?</h1>", re.S)
DIV_TAG = re.compile(r"<(/?)div\b")


def add_widget_alone_page(root, page_path, kind):
    """Write ``widget-alone/<page>/``: the page at ``page_path`` with its article holding only its title and its
    first ``kind`` widget, whole (its nested blocks matched tag by tag)."""
    page = (Path(root) / page_path / "index.html").read_text(encoding="utf-8")
    start = re.search(rf'<div class="lw-widget"[^>]*data-kind="{re.escape(kind)}"', page).start()
    depth = 0
    for tag in DIV_TAG.finditer(page, start):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            break
    widget = page[start:page.index(">", tag.start()) + 1]
    article = ARTICLE.search(page)
    title = TITLE.search(article.group(0)).group(0)
    alone = page[:article.start()] + article.group(1) + title + widget + article.group(2) + page[article.end():]
    return write_beside(root, page_path, "widget-alone", alone)


def add_variant(root, page_path, name):
    """Write the page at ``page_path`` changed as ``name`` says; return the variant's site path. A variant that
    changes nothing would measure nothing: that stops the benchmark."""
    changed = (Path(root) / page_path / "index.html").read_text(encoding="utf-8")
    for pattern, replacement in EDITS[name]:
        changed, count = pattern.subn(replacement, changed)
        if not count:
            raise ValueError(f"variant {name!r} of {page_path} changes nothing: the page's markup no longer matches "
                             f"{pattern.pattern!r}")
    return write_beside(root, page_path, name, changed)


def write_beside(root, page_path, folder, page):
    """Write ``page`` as the page at ``page_path`` with its first folder replaced by ``folder`` (the same depth, so
    its relative URLs still resolve); return that site path."""
    path = folder + "/" + page_path.split("/", 1)[1]
    (Path(root) / path).mkdir(parents=True, exist_ok=True)
    (Path(root) / path / "index.html").write_text(page, encoding="utf-8")
    return path
