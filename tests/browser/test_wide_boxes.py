"""What is wider than its column: the "Code and math" tables show every column (the code too) without scrolling
sideways, at 1280 px and on a 390 px phone, and a block that does scroll sideways (a long display equation) shades
its edge, as a wide matrix does. The engine is not needed: it is kept from loading."""
import pytest
from browser_pages import open_static, scroll_to_and_click

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# Every cell of every Code and math table, opened and rendered: how far it reaches past its box, and whether its
# own text (a code line, a long test name) is cut inside it.
CODEMATH = """async () => {
    const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const seen = [];
    for (const details of document.querySelectorAll('details.lw-codemath')) {
        details.open = true;
        details.scrollIntoView();
        await frames();
        const box = details.querySelector('.lw-codemath__scroll');
        const edge = box.getBoundingClientRect().right;
        const cells = [...box.querySelectorAll('tbody :is(td, th)')];
        seen.push({table: details.querySelector('summary').textContent, cells: cells.length,
                   overflow: box.scrollWidth - box.clientWidth,
                   past: cells.filter(c => c.getBoundingClientRect().right > edge + 1).map(c => c.textContent),
                   cut: [...box.querySelectorAll('code')].filter(c => c.scrollWidth > c.clientWidth + 1)
                        .map(c => c.textContent)});
    }
    return seen;
}"""


@pytest.mark.parametrize("path", ["layers/layernorm/", "layers/embedding/"])
@pytest.mark.parametrize("viewport", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_every_column_of_code_and_math_is_readable_without_scrolling_sideways(watched, site, path, viewport):
    page = watched.page
    open_static(watched, site, path, viewport)
    tables = page.evaluate(CODEMATH)
    assert tables and all(t["cells"] > 8 for t in tables), tables
    for table in tables:
        assert table["overflow"] <= 1 and table["past"] == [] and table["cut"] == [], table


# Each display equation once rendered: does it scroll sideways, is it marked so, and is its edge shaded?
EQUATIONS = """async () => {
    const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const seen = {};
    for (const box of document.querySelectorAll('.lw-equation div.arithmatex')) {
        box.scrollIntoView();
        await frames();
        seen[box.closest('.lw-equation').id] = {wider: box.scrollWidth > box.clientWidth + 1,
            marked: box.hasAttribute('data-scrolls'), shade: getComputedStyle(box).backgroundImage};
    }
    return seen;
}"""


def test_a_display_equation_wider_than_a_phone_shades_its_edge_and_one_that_fits_does_not(watched, site):
    page = watched.page
    open_static(watched, site, "layers/layernorm/", VIEWPORTS["phone"])
    page.wait_for_function("document.fonts.status === 'loaded'")
    equations = page.evaluate(EQUATIONS)
    wide = {eq: seen for eq, seen in equations.items() if seen["wider"]}
    assert "eq-layernorm-stat-partials" in wide, equations  # LayerNorm's backward: 630 px in a 390 px screen
    assert len(wide) < len(equations), equations  # and some fit
    for eq, seen in equations.items():
        assert seen["marked"] == seen["wider"], (eq, seen)
        assert ("gradient" in seen["shade"]) == seen["wider"], (eq, seen)


def test_a_back_link_shows_its_whole_equation_id_and_lands_with_the_title_in_view(watched, site):
    page = watched.page
    open_static(watched, site, "source/engine/embedding/", VIEWPORTS["desktop"])
    links = page.evaluate("""() => [...document.querySelectorAll('.lw-code__eq')].filter(td => td.textContent)
        .map(td => ({text: td.textContent, cut: td.scrollWidth > td.clientWidth + 1}))""")
    assert any("embedding-token-position" in link["text"] for link in links), links
    assert [link for link in links if link["cut"]] == [], links
    back = page.locator(".lw-backlink", has_text="embedding-token-position").first
    target = back.get_attribute("href").rpartition("#")[2]
    scroll_to_and_click(page, back)
    page.wait_for_function("id => location.hash === '#' + id", arg=target)
    page.wait_for_timeout(500)  # the theme's scroll to the anchor, and its "Back to top" button after it
    seen = page.evaluate("""id => {
        const title = document.getElementById(id).querySelector('.lw-equation__title').getBoundingClientRect();
        const covering = [...document.querySelectorAll('.md-header, .md-top')].filter(e => {
            const r = e.getBoundingClientRect();
            return getComputedStyle(e).visibility !== 'hidden' && r.height > 0 && r.bottom > title.top
                   && r.top < title.bottom && r.left < title.right && r.right > title.left; });
        return {top: title.top, covering: covering.map(e => e.className)};
    }""", target)
    assert 0 < seen["top"] < VIEWPORTS["desktop"]["height"] and seen["covering"] == [], seen


# Each box that may scroll sideways (scroll-regions.js), as a keyboard reader meets it: while its block is still
# skipped far down, and once it is drawn on the way there. A block the page's idle pass has drawn once (jumps.js) and
# that skips again was measured then: its box has its true tab stop already.
TAB_STOPS = """async () => {
    const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const boxes = [...document.querySelectorAll(
        '.md-typeset div.arithmatex, .lw-code, .lw-shapes, .lw-codemath__scroll, .md-typeset__scrollwrap')];
    const drawn = box => (box.firstElementChild || box).checkVisibility({contentVisibilityAuto: true});
    const skipped = boxes.filter(box => box.checkVisibility() && !drawn(box));
    const seen = [];
    for (const box of skipped) {
        const before = {stop: box.getAttribute('tabindex') === '0',
                        drawnOnce: Layerwise.everDrawn(box.closest('.md-content__inner > *'))};
        box.scrollIntoView({block: 'center'});
        await frames(); await frames();
        seen.push({box: `${box.parentElement.className} > ${box.className}`, before,
                   stop: box.getAttribute('tabindex') === '0', scrolls: box.scrollWidth > box.clientWidth + 1});
    }
    return seen;
}"""


def test_a_box_far_down_keeps_its_tab_stop_until_drawn_and_then_only_if_it_scrolls(watched, site):
    page = watched.page
    open_static(watched, site, "model/training/", VIEWPORTS["phone"])
    seen = page.evaluate(TAB_STOPS)
    assert len(seen) >= 3, f"too few boxes far down to prove anything: {seen}"
    never_drawn = [box for box in seen if not box["before"]["drawnOnce"]]
    assert [box for box in never_drawn if not box["before"]["stop"]] == [], "a box never drawn yet has no tab stop"
    measured = [box for box in seen if box["before"]["drawnOnce"] and box["before"]["stop"] != box["scrolls"]]
    assert measured == [], "a box drawn once by the idle pass kept a tab stop it does not need, or lacks one"
    wrong = [box for box in seen if box["stop"] != box["scrolls"]]
    assert wrong == [], wrong
    assert any(box["scrolls"] for box in seen), "no box far down scrolls: the test proves half"
