"""A move within a layer page, as a reader makes it: a heading of the table of contents (the sidebar on a 1280 px
screen, the menu's "Table of contents" on a 390 px phone), then Back and Forward (docs/assets/jumps.js).

- The page is not fetched again and stays the same document (mkdocs-material's instant navigation took the first
  such move for a new page and swapped the whole page in anew).
- The jump lands where the page then stays: from the first frame at the target on, nothing in view moves. The blocks
  there had never been rendered; the browser drew them at their estimated heights and moved what followed the
  target a frame or two later.
- Back returns to where the reader was, Forward to the target.
- Once the page has settled, a far move that is not a link's (the scrollbar, find in page, a script) lands still
  too: every block has been drawn once in idle time, and the page has its true length."""
import pytest
from browser_pages import instant_go, two_frames, wait_for_instant_navigation

pytestmark = pytest.mark.browser

PAGE = "layers/layernorm/"
TARGETS = ["implementation", "common-mistakes", "practice"]  # far below the first screen: never rendered before
VIEWPORTS = ["phone", "desktop"]  # conftest's watched_phone (390 px, touch), watched at 1280 px
FRAMES = 120  # about two seconds
# Every frame from before the click: the tops of the blocks of the article around the target's, as the frame will
# draw them.
RECORD_FRAMES = """([id, count]) => {
  window.__frames = [];
  const blocks = [...document.querySelector('.md-content__inner').children];
  const at = blocks.indexOf(document.getElementById(id).closest('.md-content__inner > *'));
  const record = () => {
    window.__frames.push(Object.fromEntries(blocks.slice(Math.max(0, at - 6), at + 12)
      .map((block) => [blocks.indexOf(block) - at, Math.round(block.getBoundingClientRect().top)])));
    if (window.__frames.length < count) requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
}"""


def follow_contents_link(page, viewport, target):
    """Click (or tap, on the phone, after opening the menu and its table of contents) the contents' link."""
    link = f".md-nav--secondary a[href$='#{target}']"
    if viewport == "phone":
        page.locator("label.md-header__button[for=__drawer]").tap()
        page.locator("label.md-nav__link[for=__toc]").tap()
        page.locator(f".md-sidebar--primary {link}").tap()
    else:
        page.locator(f".md-sidebar--secondary {link}").click()


# Opened, the browser restores a place on Back and Forward; arrived at from another page by the theme's instant
# navigation, the theme has turned that off (history.scrollRestoration) and jumps.js restores it.
ARRIVALS = [(viewport, target, "opened") for viewport in VIEWPORTS for target in TARGETS] + [
    ("desktop", "implementation", "by instant navigation"), ("phone", "practice", "by instant navigation")]


@pytest.mark.parametrize("viewport, target, arrival", ARRIVALS)
def test_a_contents_link_lands_still_without_fetching_the_page_again(request, site, viewport, target, arrival):
    watched = request.getfixturevalue("watched_phone" if viewport == "phone" else "watched")
    page = watched.page
    if viewport == "desktop":
        page.set_viewport_size({"width": 1280, "height": 800})
    height = page.viewport_size["height"]
    if arrival == "opened":
        page.goto(site.url + PAGE)
    else:
        page.goto(site.url)
        instant_go(page, site, PAGE)
        assert page.evaluate("history.scrollRestoration") == "manual"
    wait_for_instant_navigation(page)
    page.evaluate("window.__article = document.querySelector('.md-content__inner')")
    requests_before = len(watched.requests)

    page.evaluate(RECORD_FRAMES, [target, FRAMES])
    follow_contents_link(page, viewport, target)
    page.wait_for_function(f"window.__frames.length === {FRAMES}")

    assert page.evaluate("window.__article === document.querySelector('.md-content__inner')"), \
        "the page was swapped for a new copy"
    fetched = [url for url in watched.requests[requests_before:] if url.split("#")[0] == site.url + PAGE]
    assert fetched == [], "the page was fetched again"
    assert page.evaluate("location.hash") == f"#{target}"
    assert not page.evaluate("document.getElementById('__drawer').checked"), "the menu stayed open"
    frames = [{int(block): top for block, top in frame.items()} for frame in page.evaluate("window.__frames")]
    landed = next(i for i, frame in enumerate(frames) if 0 <= frame[0] < height / 3)  # block 0: the target's
    in_view = {block: top for block, top in frames[landed].items() if -height < top < height}
    moved = [(i - landed, block, in_view[block], frame[block]) for i, frame in enumerate(frames[landed:], landed)
             for block in in_view if abs(frame[block] - in_view[block]) > 1]
    assert moved == [], "after the jump, blocks in view moved: (frames later, block from the target's, top, then)"
    top = frames[-1][0]

    page.go_back()
    page.wait_for_function("location.hash === ''")
    two_frames(page)
    assert page.evaluate("scrollY") == 0, "Back did not return to the top, where the reader was"
    # Meanwhile the blocks never drawn are drawn in idle time (jumps.js), those between the top and the target too:
    # the offset the browser kept for the target's entry is then out of date. Forward comes after that here.
    page.wait_for_function("window.Layerwise.measuredPage === location.pathname")
    page.go_forward()
    page.wait_for_function("id => location.hash === '#' + id", arg=target)
    two_frames(page)
    assert abs(page.evaluate(f"document.getElementById('{target}').closest('.md-content__inner > *')"
                             ".getBoundingClientRect().top") - top) <= 1, "Forward did not return to the target"
    assert page.evaluate("window.__article === document.querySelector('.md-content__inner')")


# Every block laid out at its true height: with all of them drawn, the page is as long as it was. They are drawn as
# jumps.js draws a block ahead of a jump (lw-render-now), with the containment of a block content-visibility: auto
# renders, within which a block's margins stay (without it, a code block's collapse out of it).
TRUE_LENGTH = """() => {
  const before = document.documentElement.scrollHeight;
  document.querySelectorAll('.md-content__inner > *').forEach((block) => block.classList.add('lw-render-now'));
  return [before, document.documentElement.scrollHeight];
}"""
SHIFTS = """() => { window.__shifts = [];
  new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__shifts.push(e.value)))
    .observe({ type: 'layout-shift' }); }"""


def test_once_settled_the_page_has_its_true_length_and_any_far_move_lands_still(watched_phone, site):
    """The scrollbar, find in page, Tab to a far link or a script's scrollIntoView move without a link's click: after
    the page has settled, its blocks never drawn are drawn in idle time and keep their true heights, so the page has
    its true length and such a move lands on true heights (a jump to LayerNorm's widget, 412 px: a shift of 0.15
    before, the blocks after the widget thrown down the screen as they were first drawn)."""
    page = watched_phone.page
    page.goto(site.url + PAGE)
    page.wait_for_function("window.Layerwise && Layerwise.measuredPage === location.pathname", timeout=90_000)
    page.evaluate(SHIFTS)
    page.evaluate("document.querySelectorAll('.lw-widget')[0].scrollIntoView()")
    for _ in range(30):
        two_frames(page)
    assert page.evaluate("window.__shifts") == [], "a jump to the widget moved what was in view"
    before, true = page.evaluate(TRUE_LENGTH)
    assert abs(before - true) <= 2, f"the page was {before} px long, {true} px with every block drawn"


def test_a_malformed_fragment_names_nothing_and_breaks_nothing(watched, site):
    """A link typed or cut short in the middle of a %-escape: decoding it throws. The page still sets up its widgets
    and engine, follows its contents' links in place, and throws nothing (the fixture fails on any page error)."""
    page = watched.page
    page.goto(site.url + PAGE + "#%E0%A4%A")
    page.wait_for_function("window.Layerwise && Layerwise.widgets && Layerwise.widgets().length > 0"
                           " && Layerwise.engine.starts === 1")
    follow_contents_link(page, "desktop", "implementation")
    page.wait_for_function("location.hash === '#implementation'"
                           " && Math.abs(document.getElementById('implementation').getBoundingClientRect().top) < 100")
