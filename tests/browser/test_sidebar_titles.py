"""The sidebars' titles never cover a link: scrolled to any position, every navigation link whose centre is in view
can be clicked there (what the browser hits at its centre is the link). Material makes the titles sticky; on the
navigation that once listed every source file, the desktop sidebar's title covered the link scrolled under it. The
navigation is short now (one "Source" entry), so each list is made to scroll by a short window. No engine is
needed."""
import pytest
from browser_pages import open_static

pytestmark = pytest.mark.browser

# For each scroll position of `scroller`, the links whose centre is inside the scroller's box and the window but
# whose centre the browser hits as something else (a title, its shadow box, another item).
COVERED = """scroller => {
    const covered = [];
    const box = scroller.getBoundingClientRect();
    const far = scroller.scrollHeight - scroller.clientHeight;
    let checked = 0;
    const reached = new Set();
    for (const share of [0, 0.1, 0.13, 0.25, 0.5, 0.62, 0.75, 1]) {
        scroller.scrollTop = Math.round(far * share);
        for (const link of scroller.querySelectorAll('a.md-nav__link')) {
            const r = link.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            if (!r.width || y < box.top || y > box.bottom || x < box.left || x > box.right) continue;
            if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) continue;
            checked += 1;
            reached.add(link);
            const hit = document.elementFromPoint(x, y);
            if (!hit || !link.contains(hit)) {
                covered.push(`${link.textContent.trim()} at scrollTop ${scroller.scrollTop}, under `
                             + (hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing'));
            }
        }
    }
    return {far, checked, covered, reached: reached.size, links: scroller.querySelectorAll('a.md-nav__link').length};
}"""
SOURCE_PAGE = "source/engine/norms/"


@pytest.mark.parametrize("width", [1280, 1220], ids=["1280px", "76.25em"])
def test_the_desktop_sidebars_title_covers_no_link_at_any_scroll(watched, site, width):
    open_static(watched, site, SOURCE_PAGE, {"width": width, "height": 420})
    measured = watched.page.locator(".md-sidebar--primary .md-sidebar__scrollwrap").evaluate(COVERED)
    assert measured["far"] > 100, "the navigation should scroll in a 420 px window"
    assert measured["reached"] == measured["links"], "some link of the navigation was never scrolled into view"
    assert measured["covered"] == []


def test_the_table_of_contents_title_covers_no_link_on_a_short_window(watched, site):
    open_static(watched, site, "layers/layernorm/", {"width": 1280, "height": 420})
    measured = watched.page.locator(".md-sidebar--secondary .md-sidebar__scrollwrap").evaluate(COVERED)
    assert measured["far"] > 100, "the table of contents should scroll in a 420 px window"
    assert measured["covered"] == []


def test_the_phones_drawer_keeps_its_title_above_the_list_it_scrolls(watched, site):
    page = watched.page
    open_static(watched, site, "layers/layernorm/", {"width": 375, "height": 480})
    page.locator('.md-header label[for="__drawer"]').click()
    # the drawer opens on the page's own section, "Layers", whose list scrolls under the section's title
    section = page.locator(".md-sidebar--primary .md-nav__list").filter(has=page.locator('a[href$="rmsnorm/"]')).last
    section.wait_for()
    page.wait_for_function("el => el.getBoundingClientRect().left === 0", arg=section.element_handle())
    measured = section.evaluate(COVERED)
    assert measured["far"] > 100, "the drawer's Layers list should scroll in a 375 x 480 window"
    assert measured["checked"] > 10
    assert measured["covered"] == []
