"""WCAG 2.1 A/AA audit with axe-core (from node_modules, injected into the page: never loaded from a CDN) on seven
pages in both palettes: with the engine kept out (what every reader gets), with every widget live (needs
PYODIDE_DIST), and on the LayerNorm page after an edit and with a bad value in a cell. A page passes with zero
"serious" or "critical" violations; a failure lists each rule with the elements it flagged."""
import pytest
from browser_pages import ROOT, wait_for_engine
from wcag import contrast

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
PAGES = {
    "home": "",
    "layernorm": "layers/layernorm/",
    "attention": "layers/attention/",
    "embedding": "layers/embedding/",
    "model": "model/model/",
    "training": "model/training/",
    "build-your-gpt": "model/build-your-gpt/",
    "norms-source": "source/engine/norms/",
    "rope": "layers/rope/",
    "tokenizer": "layers/tokenizer/",
    "modern-block": "model/modern_block/",
}
WIDGET_PAGES = ["layernorm", "attention", "embedding", "model", "training", "rope", "modern-block"]
PALETTES = {"light": "default", "dark": "slate"}  # prefers-color-scheme -> mkdocs-material scheme

RENDER_EVERY_BLOCK = ".md-content__inner > * { content-visibility: visible !important; }"


def open_page(watched, site, name, palette, engine):
    """Load a page in a palette; ``engine`` False keeps the worker script out, so the widgets stay static (the
    engine fails at once and the page shows its notice). Waits until the widgets settle."""
    page = watched.page
    if not engine:
        watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    page.emulate_media(color_scheme=palette)
    page.goto(site.url + PAGES[name])
    page.wait_for_function("document.body.dataset.mdColorScheme !== undefined")
    assert page.evaluate("document.body.dataset.mdColorScheme") == PALETTES[palette]
    if page.locator(".lw-widget").count():
        page.locator(".lw-widget").first.scroll_into_view_if_needed()
        state = wait_for_engine(page)
        assert state["state"] == ("ready" if engine else "failed"), state
        if engine:
            page.wait_for_function("[...document.querySelectorAll('.lw-state')].every(s => s.textContent === 'live')")
    return page


def blocking_violations(page):
    """axe-core's serious and critical WCAG 2.1 A/AA violations on the page as it is now."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing at {AXE}: run `npm ci` (bash scripts/dev.sh test does it)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))  # inlined into the page: no request is made
    # Blocks far off screen are not rendered (content-visibility: auto, layerwise.css), and axe's contrast rule finds
    # a text's background by hit testing, which does not enter them: it would read another block's background. A
    # reader sees a block only once it is rendered, so axe checks the page with every block rendered, after the page
    # has drawn its blocks once in idle time (docs/assets/jumps.js), which would otherwise change them during the run.
    page.wait_for_function("window.Layerwise && Layerwise.measuredPage === location.pathname", timeout=90_000)
    page.add_style_tag(content=RENDER_EVERY_BLOCK)
    # A transition caught half-way blends its colours: the theme's "Back to top" button fades in when the view moves
    # up, as the browser's scroll anchoring moves it by a few pixels when blocks above the view are first drawn (a
    # failure in CI: its text at 3.74:1 mid-fade, 4.5:1 and more when shown).
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')", timeout=10_000)
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                           "resultTypes: ['violations']})", WCAG_21_AA)
    return [v for v in result["violations"] if v["impact"] in BLOCKING]


def describe(violations):
    lines = []
    for v in violations:
        targets = [" ".join(map(str, node["target"])) for node in v["nodes"]]
        lines.append(f"{v['id']} ({v['impact']}, {len(targets)} nodes): {v['help']}")
        lines.extend(f"    {t}" for t in targets[:8])
        if len(targets) > 8:
            lines.append(f"    ... and {len(targets) - 8} more")
        summary = (v["nodes"][0].get("failureSummary") or "").replace("\n", " ")
        lines.append(f"    first: {summary[:300]}")
    return "\n".join(lines)


def assert_accessible(page, where):
    violations = blocking_violations(page)
    count = sum(len(v["nodes"]) for v in violations)
    assert violations == [], f"{where}: {count} serious/critical nodes\n{describe(violations)}"


@pytest.mark.parametrize("palette", PALETTES)
@pytest.mark.parametrize("name", PAGES)
def test_page_without_the_engine(watched, site, name, palette):
    page = open_page(watched, site, name, palette, engine=False)
    assert_accessible(page, f"{name}, {palette}, engine kept out")


@pytest.mark.parametrize("palette", PALETTES)
@pytest.mark.parametrize("name", WIDGET_PAGES)
def test_page_with_live_widgets(watched, live, name, palette):
    page = open_page(watched, live, name, palette, engine=True)
    assert_accessible(page, f"{name}, {palette}, widgets live")


def first_cell(page):
    return page.locator(".lw-widget").first.locator(".lw-input .lw-cell").first


@pytest.mark.parametrize("palette", PALETTES)
def test_layernorm_after_an_edit_and_with_a_bad_value(watched, live, palette):
    page = open_page(watched, live, "layernorm", palette, engine=True)
    widget = page.locator(".lw-widget").first
    page.evaluate("""() => { window.__rendered = 0;
        document.addEventListener('layerwise:rendered', () => { window.__rendered += 1; }); }""")
    first_cell(page).fill("7.25")
    page.wait_for_function("window.__rendered > 0")
    assert widget.locator(".lw-changed").count() > 0  # the highlight is on screen while axe checks its contrast
    assert_accessible(page, f"layernorm, {palette}, after an edit")

    first_cell(page).fill("7..25")
    page.wait_for_function("document.querySelector('.lw-widget .lw-results.lw-stale')")
    assert first_cell(page).get_attribute("aria-invalid") == "true"  # its message and the stale outputs are shown
    assert_accessible(page, f"layernorm, {palette}, a bad value in a cell")


@pytest.mark.parametrize("palette", PALETTES)
def test_layernorm_with_a_bad_value_without_the_engine(watched, site, palette):
    page = open_page(watched, site, "layernorm", palette, engine=False)
    first_cell(page).fill("7..25")
    page.wait_for_function("document.querySelector('.lw-widget .lw-results.lw-stale')")
    assert first_cell(page).get_attribute("aria-invalid") == "true"
    assert_accessible(page, f"layernorm, {palette}, a bad value, engine kept out")


def test_the_wide_equation_scrolls_from_the_keyboard_and_blocks_that_fit_take_no_tab_stop(watched, site):
    page = watched.page
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site.url + PAGES["model"])
    equation = page.locator("#eq-model-param-count div.arithmatex")
    assert equation.evaluate("box => box.scrollWidth > box.clientWidth")  # wider than its column at this width
    assert equation.get_attribute("role") == "group"
    assert equation.get_attribute("aria-label") == "Equation: Parameter count of the whole model"
    # Blocks that fit lose the build's tab stop (scroll-regions.js), so they cost no Tab press. That a box far off
    # screen keeps its tab stop until it is drawn and measured is test_wide_boxes.py's: the page's idle pass
    # (jumps.js) draws blocks at its own pace, so whether the last one here was drawn yet is a race, not a property.
    boxes = ".md-typeset div.arithmatex, .lw-code, .lw-shapes, .lw-codemath__scroll, .md-typeset__scrollwrap"
    page.evaluate("""async () => {
        for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
            scrollTo(0, y);
            await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        }
    }""")
    page.wait_for_function("""sel => [...document.querySelectorAll(sel)].every(box =>
        box.hasAttribute('tabindex') === (box.scrollWidth > box.clientWidth + 1))""", arg=boxes)
    assert page.locator(".md-typeset div.arithmatex:not([tabindex])").count() > 5
    page.evaluate("scrollTo(0, 0)")

    page.locator("#eq-model-param-count .lw-equation__anchor").focus()
    page.keyboard.press("Tab")  # the next stop after the equation's ¶ link is the formula itself
    assert equation.evaluate("box => document.activeElement === box")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    # the browser scrolls on its own compositor schedule: wait for it rather than read scrollLeft at once
    equation.wait_for(state="visible")
    page.wait_for_function("box => box.scrollLeft > 0", arg=equation.element_handle(), timeout=5_000)


BADGE_STATES = ("static", "loading", "live", "error")  # widget.js showEngineState


def parse_colour(css):
    """'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 0.5)' -> (r, g, b, alpha)."""
    parts = [float(p) for p in css[css.index("(") + 1:-1].split(",")]
    return (*parts[:3], parts[3] if len(parts) == 4 else 1.0)


def test_contrast_of_the_two_extremes():  # the formula against WCAG's own end points
    assert contrast((0, 0, 0, 1.0), (255, 255, 255, 1.0)) == pytest.approx(21.0)
    assert contrast((118, 118, 118, 1.0), (255, 255, 255, 1.0)) == pytest.approx(4.54, abs=0.01)  # #767676
    assert contrast((0, 0, 0, 0.0), (255, 255, 255, 1.0)) == pytest.approx(1.0)


@pytest.mark.parametrize("palette", PALETTES)
def test_the_engine_badge_reads_in_every_state(watched, site, palette):
    """The widget header's state badge in each state it can show, against the background its ancestors paint (as
    HTML_CodeSniffer finds it: the nearest opaque one). The Inside page's probability bars once shared the header's
    class, painting it indigo under the badge: axe, hit testing a badge taller than that strip, passed it; pa11y did
    not (1.04:1 while loading)."""
    page = open_page(watched, site, "layernorm", palette, engine=False)
    for state in BADGE_STATES:
        colours = page.evaluate("""state => [...document.querySelectorAll('.lw-widget')].map(widget => {
            const badge = widget.querySelector('.lw-state');
            widget.dataset.state = badge.dataset.state = state;
            let node = badge, background = 'rgba(0, 0, 0, 0)', painter = null;
            while (node && node.nodeType === 1) {
              const bg = getComputedStyle(node).backgroundColor;
              if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') { background = bg; painter = node; break; }
              node = node.parentNode;
            }
            return {id: widget.id, text: getComputedStyle(badge).color, background, painter: painter && painter.tagName};
        })""", state)
        assert colours, "no widget on the page"
        for found in colours:
            assert found["painter"] == "BODY", f"{found['id']} ({state}): its badge sits on a {found['painter']}'s " \
                                               f"background {found['background']}, not the page's"
            ratio = contrast(parse_colour(found["text"]), parse_colour(found["background"]))
            assert ratio >= 4.5, f"{found['id']} badge '{state}' in {palette}: {found['text']} on " \
                                 f"{found['background']} is {ratio:.2f}:1"
