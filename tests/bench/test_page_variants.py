"""The benchmark's page variants remove exactly what they name, keep the rest (the pre-rendered widget among it),
sit at the page's folder depth, and refuse to measure a variant that changed nothing."""
import pytest
from browserbench import variants

PAGE = """<head><link rel="stylesheet" href="../../assets/stylesheets/main.css">
<link rel="stylesheet" href="../../assets/layerwise/widgets.css"></head>
<body><div class="lw-widget"><td>1.2247</td></div>
<link rel="preload" as="script" href="../../assets/javascripts/bundle.a5f9d56c.min.js" fetchpriority="low">\
<script type="layerwise/after-first-frame" src="../../assets/javascripts/bundle.a5f9d56c.min.js"></script>
<link rel="preload" as="script" href="../../assets/layerwise/engine-config.js" fetchpriority="low">\
<script type="layerwise/after-first-frame" src="../../assets/layerwise/engine-config.js"></script>
<link rel="modulepreload" href="../../assets/layerwise/widgets.js" fetchpriority="low">\
<script type="layerwise/after-first-frame" src="../../assets/layerwise/widgets.js" data-module></script></body>"""
BUNDLE_TAGS = ('<link rel="preload" as="script" href="../../assets/javascripts/bundle.a5f9d56c.min.js" '
               'fetchpriority="low"><script type="layerwise/after-first-frame" '
               'src="../../assets/javascripts/bundle.a5f9d56c.min.js"></script>')
JUMPS_TAGS = ('<link rel="preload" as="script" href="../../assets/jumps.js" fetchpriority="low">'
              '<script type="layerwise/after-first-frame" src="../../assets/jumps.js"></script>')


@pytest.fixture
def site(tmp_path):
    (tmp_path / "layers" / "layernorm").mkdir(parents=True)
    (tmp_path / "layers" / "layernorm" / "index.html").write_text(PAGE)
    return tmp_path


def test_without_widgets_keeps_the_prerendered_numbers_and_the_theme(site):
    path = variants.add_variant(site, "layers/layernorm/", "without-widgets")
    assert path == "without-widgets/layernorm/"
    html = (site / path / "index.html").read_text()
    assert "assets/layerwise" not in html
    assert '<div class="lw-widget"><td>1.2247</td></div>' in html
    assert 'main.css' in html and "bundle.a5f9d56c.min.js" in html


def test_without_theme_js_drops_only_the_bundle(site):
    html = (site / variants.add_variant(site, "layers/layernorm/", "without-theme-js") / "index.html").read_text()
    assert html == PAGE.replace(BUNDLE_TAGS, "")


def test_a_variant_that_changes_nothing_stops_the_benchmark(site):
    (site / "layers" / "layernorm" / "index.html").write_text("<body>no scripts</body>")
    with pytest.raises(ValueError, match="'without-widgets' of layers/layernorm/ changes nothing"):
        variants.add_variant(site, "layers/layernorm/", "without-widgets")


def test_the_bare_edit_page_sends_the_widgets_own_start_values(site):
    spec = '{"name":"layernorm","inputs":[{"name":"x","dims":["T","d"]},{"name":"gamma","dims":["d"]}]}'
    start = '{"x":[[1.5,2],[3,4]],"gamma":[1,1]}'
    widget = (f'<div class="lw-widget" data-kind="layernorm" data-spec="{spec.replace(chr(34), "&quot;")}" '
              f'data-start="{start.replace(chr(34), "&quot;")}">')
    (site / "layers" / "layernorm" / "index.html").write_text(PAGE.replace('<div class="lw-widget">', widget))
    path = variants.add_bare_edit_page(site, "layers/layernorm/", "layernorm")
    assert path == "bare-edit/layernorm/"  # two folders deep, like the page: the same relative asset URLs
    html = (site / path / "index.html").read_text()
    assert '<input class="lw-cell" value="1.5">' in html  # x's first cell, the one typed into
    assert 'const values = {"x": [[1.5, 2], [3, 4]], "gamma": [1, 1]}, kind = "layernorm", edited = "x";' in html
    assert '<script src="../../assets/layerwise/engine-config.js"></script>' in html


def test_without_jumps_drops_the_pages_own_handling_of_moves_within_it(site):
    head_script = """<script>{
    document.documentElement.classList.add("lw-js");
    // A move within the page (a link to a heading) is the browser's own.
    // Kept from the theme.
    addEventListener("popstate", (event) => {
      if (location.pathname !== window.Layerwise.shownPath) return;
      event.stopImmediatePropagation();
    });
    // A block far off screen skips rendering
  }</script>"""
    page = head_script + PAGE.replace("</body>", JUMPS_TAGS + "</body>")
    (site / "layers" / "layernorm" / "index.html").write_text(page)
    html = (site / variants.add_variant(site, "layers/layernorm/", "without-jumps") / "index.html").read_text()
    assert "popstate" not in html and "jumps.js" not in html
    assert 'classList.add("lw-js");\n    // A block far off screen skips rendering' in html  # the rest of the script stays
    assert html.endswith(PAGE)


def test_a_variant_must_change_everything_it_names(site):
    (site / "layers" / "layernorm" / "index.html").write_text(PAGE.replace("</body>", JUMPS_TAGS + "</body>"))
    with pytest.raises(ValueError, match="'without-jumps' of layers/layernorm/ changes nothing"):
        variants.add_variant(site, "layers/layernorm/", "without-jumps")  # no popstate listener to remove


def test_widget_alone_keeps_the_title_and_the_whole_widget_and_nothing_else_of_the_article(site):
    article = ('<article class="md-content__inner md-typeset"><h1 id="layernorm">LayerNorm</h1><p>Intro</p>'
               '<div class="lw-widget" data-kind="softmax"><div>other</div></div><p>Between</p>'
               '<div class="lw-widget" data-kind="layernorm"><div class="lw-grid"><div>1.5</div></div>'
               '<p>check</p></div><h2 id="practice">Practice</h2><div class="lw-exercise"></div></article>')
    page = "<body><nav>contents</nav>" + article + "<footer>foot</footer></body>"
    (site / "layers" / "layernorm" / "index.html").write_text(page)
    path = variants.add_widget_alone_page(site, "layers/layernorm/", "layernorm")
    assert path == "widget-alone/layernorm/"  # two folders deep, like the page
    assert (site / path / "index.html").read_text() == (
        '<body><nav>contents</nav><article class="md-content__inner md-typeset"><h1 id="layernorm">LayerNorm</h1>'
        '<div class="lw-widget" data-kind="layernorm"><div class="lw-grid"><div>1.5</div></div><p>check</p></div>'
        "</article><footer>foot</footer></body>")
