"""The real site, built strictly once per session: every internal link and anchor resolves, nothing is loaded
from another origin, the math is typeset at build time, every engine module has a source page, the search index
leaves out numbers and code.

The crawler here is written independently of layerwise_build/crosslink/linkcheck.py, so a bug there cannot hide here.
"""
import html as html_lib
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from crosslink_harness import REPO, nav_pages
from engine.config import GPTConfig
from engine.train import TrainSettings

HREF = re.compile(r'<(a|link|script|img)\b[^>]*?\b(href|src)="([^"]*)"', re.S)
LOADING_TAG = re.compile(r"<(?:link|script|img|iframe|source)\b[^>]*>", re.S)
ID = re.compile(r'\b(?:id|name)="([^"]+)"')
FIXTURES = REPO / "tests" / "site" / "fixtures"  # mkdocs.yml's `exclude`: no source pages


def _pages(site: Path):
    return sorted(site.rglob("*.html"))


def test_every_internal_link_and_anchor_resolves(built_site):
    ids = {page: set(ID.findall(page.read_text())) for page in _pages(built_site)}
    broken, checked = [], 0
    for page, _ in ids.items():
        if page.name == "404.html":
            continue  # the 404 page's links are absolute (it is served from any path)
        for tag, _, url in HREF.findall(page.read_text()):
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith(("mailto:", "data:", "javascript:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(built_site)}: {url} (no such file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids[target]:
                broken.append(f"{page.relative_to(built_site)}: {url} (no such anchor)")
    assert broken == []
    assert checked > 1000  # the crawl really ran over the code tables' line links


def test_nothing_is_loaded_from_another_origin(built_site):
    external = []
    for page in _pages(built_site):
        for tag in LOADING_TAG.findall(page.read_text()):
            url = re.search(r'\b(?:href|src)="([^"]*)"', tag)
            if url and urlsplit(url.group(1)).netloc and 'rel="canonical"' not in tag:  # canonical loads nothing
                external.append(f"{page.relative_to(built_site)}: {tag}")
    assert external == []
    css = "\n".join(p.read_text() for p in built_site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "fonts.gstatic" not in css


def test_math_is_html_at_build_time_and_only_katex_css_and_fonts_ship(built_site):
    katex = built_site / "assets" / "vendor" / "katex"
    css = (katex / "katex.min.css").read_text()
    for font in set(re.findall(r"url\((fonts/[^)]+)\)", css)):
        assert (katex / font).is_file(), font
    assert not list(built_site.rglob("katex*.js")) and not list(built_site.rglob("auto-render*.js"))
    for page in _pages(built_site):
        html = page.read_text()
        math = re.findall(r'<(span|div) class="arithmatex"[^>]*>(.{0,40})', html)
        untouched = [body for _, body in math if not body.startswith('<span class="katex')]
        assert untouched == [], f"{page.relative_to(built_site)}: math left as TeX: {untouched[:3]}"
    linear = (built_site / "layers" / "linear" / "index.html").read_text()
    assert "katex.min.js" not in linear and "katex-init.js" not in linear
    # the forward equation of docs/layers/linear.md, typeset (display mode) with its TeX kept for screen readers
    forward = linear.split('id="eq-linear-forward"', 1)[1].split('class="lw-equation"', 1)[0]
    assert 'class="katex-display"' in forward and "<math" in forward
    assert ('<annotation encoding="application/x-tex">Y = X W + b, \\qquad Y_{tj} = \\sum_{k} X_{tk} W_{kj} + b_j'
            '</annotation>') in forward


def test_every_engine_module_has_a_numbered_source_page(built_site):
    modules = sorted(p.relative_to(REPO).with_suffix("").as_posix() for p in (REPO / "engine").rglob("*.py"))
    for module in modules:
        page = built_site / "source" / module / "index.html"
        assert page.is_file(), module
        lines = (REPO / f"{module}.py").read_text().splitlines()
        assert f'id="L{len(lines)}"' in page.read_text(), module


def test_the_nav_has_one_source_entry_whose_page_lists_every_source_page(built_site):
    html = (built_site / "layers" / "layernorm" / "index.html").read_text()
    nav = html.split('md-sidebar--primary"', 1)[1].split('md-sidebar--secondary"', 1)[0]
    pages = [href for href in re.findall(r'<a href="([^"]*)" class="md-nav__link', nav) if not href.startswith("#")]
    # a link per page of mkdocs.yml's nav (its own sections' included; the page's table of contents aside), then
    # the index of the source pages: no link per file
    assert len(pages) == len(nav_pages()) + 1 and pages[-1] == "../../source/"
    index = (built_site / "source" / "index.html").read_text()
    listed = {href for href in re.findall(r'<td><a href="([^"]+)"', index)}
    files = [p.relative_to(REPO).with_suffix("").as_posix() for folder in ("engine", "tests")
             for p in (REPO / folder).rglob("*.py") if not p.is_relative_to(FIXTURES)]
    assert listed == {f"{module}/" for module in files}
    for module in ("engine/norms", "engine/examples/kind", "tests/engine/test_model"):
        page = (built_site / "source" / module / "index.html").read_text()
        depth = module.count("/") + 1
        assert f'<a href="{"../" * depth}">Source</a> ›' in page, module  # the way back to the index


def test_layer_pages_show_the_full_anatomy(built_site):
    for name in ("linear", "layernorm", "embedding"):
        html = (built_site / "layers" / name / "index.html").read_text()
        assert html.count('class="lw-equation"') >= 2, name  # forward and backward at least
        assert 'class="lw-impl"' in html and 'class="lw-shapes"' in html, name
        # the code-and-math table, collapsed, its summary counting the places
        assert re.search(r'<details class="info lw-codemath"><summary>Code and math: \d+ places in \d+ files<', html), name
        assert "Tested by:" in html and "Called by:" in html, name
        answers = html.count("<details") - html.count('<details class="info lw-codemath"')
        assert answers >= 3, name  # knowledge-check answers, revealed on demand


def test_shapes_tables_give_the_batch_letter_the_training_default(built_site):
    B, T, V = TrainSettings().batch_size, GPTConfig().seq_len, "V"
    html = (built_site / "model" / "model" / "index.html").read_text()
    assert f"<td><code>ids</code></td><td><code>(B, T)</code></td><td><code>({B}, {T})</code></td>" in html
    assert f"<td><code>(B, T, V)</code></td><td><code>({B}, {T}, {V})</code></td>" in html
    assert f"B is batch_size, {B}, a training default" in html


def test_search_index_keeps_prose_and_titles_but_not_numbers_or_code(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    linear = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("layers/linear/"))
    page = (built_site / "layers" / "linear" / "index.html").read_text()
    # every excluded part of a widget: its arithmetic line, gradient check and (its first row of) output cells
    hidden = [html_lib.unescape(text) for text in re.findall(r'<p class="lw-(?:arith|gradcheck)"[^>]*>([^<]+)</p>', page)]
    assert len(hidden) >= 2
    hidden += ["".join(re.findall(r"<td>([^<]*)</td>", section)[:3])
               for section in re.findall(r'<section class="lw-group".*?</section>', page)]
    leaked = [text for text in hidden if text in linear]
    assert leaked == [], f"widget outputs in the search index: {leaked[:3]}"
    assert "def linear_forward(" not in linear and "Tested by" not in linear  # code lines, call lists
    # what stays: the widget's title, the function the listing shows, the code-and-math summary, the prose
    assert "X @ W + b, and its backward" in linear and "linear.linear_forward" in linear
    assert re.search(r"Code and math: \d+ places in \d+ files", linear)
    assert "weighted sum" in linear  # from the opening paragraph of docs/layers/linear.md


def test_every_script_waits_for_the_first_frame_preloaded_and_the_bundle_runs_first(built_site):
    """Every script file a page loads is written inert (the head's script starts it after the first frame,
    layerwise_build/pagescripts.py) beside a low-priority preload of the same file, so it is fetched with the page but
    after its HTML, CSS and fonts. They start in document order, so the theme's bundle must come first: widgets.js and
    practice/loader.js subscribe to its document$ when they run."""
    runs_early, unpreloaded, out_of_order, pages = [], [], [], 0
    for page in _pages(built_site):
        tags = LOADING_TAG.findall(page.read_text())
        scripts = [tag for tag in tags if tag.startswith("<script") and " src=" in tag]
        if not scripts:
            continue
        pages += 1
        name = page.relative_to(built_site)
        preloads = {re.search(r'\bhref="([^"]*)"', tag).group(1): tag for tag in tags
                    if re.search(r'rel="(?:modulepreload|preload)"', tag)}
        for tag in scripts:
            src = re.search(r'\bsrc="([^"]*)"', tag).group(1)
            if 'type="layerwise/after-first-frame"' not in tag:
                runs_early.append(f"{name}: {tag}")
            preload = preloads.get(src, "")
            as_module = "data-module" in tag
            if 'fetchpriority="low"' not in preload or ('rel="modulepreload"' in preload) != as_module:
                unpreloaded.append(f"{name}: {tag} ({preload or 'no preload'})")
        sources = [re.search(r'\bsrc="([^"]*)"', tag).group(1) for tag in scripts]
        bundle = [i for i, src in enumerate(sources) if "/javascripts/bundle." in src]
        if bundle != [0]:
            out_of_order.append(f"{name}: {sources[:3]}")
    assert runs_early == [] and unpreloaded == [] and out_of_order == []
    assert pages > 20  # every page of the site loads the theme's bundle
