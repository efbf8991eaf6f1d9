"""Nothing moves after first paint: a layer page loads on a 412 px phone and a 1280 px screen, its engine goes live
(with PYODIDE_DIST; without it, it fails and says so), its practice section and knowledge checks are set up, its
fonts arrive, and the layout shifts Chromium reports over all of that add up to at most 0.02 (the limit asked of
Lighthouse's CLS, which counts only the worst burst: a sum is stricter). A failure lists the shifts and what moved.

Also opened at a fragment, as a link from the Practice page or to an equation opens it: the browser scrolls to the
target while the page is still being drawn, and the exercise on screen swaps its static starter for the editor."""
import time
from pathlib import Path

import pytest
from browser_pages import two_frames
from layerwise_build.livewidgets.serve import SiteHandler, start_server

pytestmark = pytest.mark.browser

MAX_CLS = 0.02
PAGES = ["layers/layernorm/", "layers/attention/", "layers/embedding/", "model/model/", "layers/gqa/",
         "model/modern_block/"]
VIEWPORTS = {"phone": {"width": 412, "height": 915}, "desktop": {"width": 1280, "height": 800}}

# Installed before any page script: every layout-shift entry from the first paint on (buffered), with what moved.
RECORD_SHIFTS = """
window.__layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__layoutShifts.push({
      value: entry.value, at: Math.round(entry.startTime), input: entry.hadRecentInput,
      moved: entry.sources.map(({ node, previousRect: a, currentRect: b }) => {
        const el = node && (node.nodeType === 1 ? node : node.parentElement);
        const name = el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
          [...el.classList].map((c) => '.' + c).join('') : '(removed)';
        const text = el ? el.textContent.trim().slice(0, 40) : '';
        return `${name} "${text}" y ${Math.round(a.y)}->${Math.round(b.y)} h ${Math.round(a.height)}->${Math.round(b.height)}`;
      }),
    });
  }
}).observe({ type: 'layout-shift', buffered: true });
"""
# The page is settled: engine ready (or failed), every widget showing that state, practice set up, fonts loaded.
SETTLED = """expected => window.Layerwise && Layerwise.engine && Layerwise.engine.state === expected
    && Layerwise.widgets().length === document.querySelectorAll('.lw-widget').length
    && Layerwise.widgets().every(w => w.el.dataset.state === (expected === 'ready' ? 'live' : 'static'))
    && document.body.dataset.lwPractice === location.pathname
    && [...document.querySelectorAll('.lw-exercise')].every(el => el.dataset.lwReady)
    && document.fonts.status === 'loaded'"""
# ... and every exercise within a screen of the view has its editor (they are made in idle time near the screen).
EDITORS_NEAR_THE_VIEW_MADE = """() => [...document.querySelectorAll('.lw-exercise')].every(el => {
    const box = el.getBoundingClientRect();
    return box.bottom < -innerHeight || box.top > 2 * innerHeight || el.querySelector('.cm-editor');
})"""


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
@pytest.mark.parametrize("path", PAGES)
def test_a_layer_page_does_not_move_while_it_loads_and_goes_live(watched, site, path, viewport):
    page = open_recording_shifts(watched.page, site.url + path, viewport)
    assert_still(page, site, f"{path} at {viewport}")


# An exercise (what the Practice page links to), the Practice heading, and equations far down two pages.
FRAGMENTS = ["layers/layernorm/#exercise-layernorm-backward", "layers/attention/#practice",
             "layers/layernorm/#eq-layernorm-dx", "model/model/#code-and-math"]


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
@pytest.mark.parametrize("path", FRAGMENTS)
def test_a_page_opened_at_a_fragment_does_not_move_and_shows_the_target(watched, site, path, viewport):
    page = open_recording_shifts(watched.page, site.url + path, viewport)
    page.wait_for_function(EDITORS_NEAR_THE_VIEW_MADE, timeout=90_000)
    assert_still(page, site, f"{path} at {viewport}")
    target = page.evaluate("document.getElementById(decodeURIComponent(location.hash.slice(1))).getBoundingClientRect()"
                           ".top")
    assert 0 <= target < VIEWPORTS[viewport]["height"] / 2, f"{path} at {viewport}: the target is at {target} px"



@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_page_opened_at_a_fragment_then_renders_only_near_the_screen_and_scrolls_up_still(watched, site, viewport):
    """Drawn whole while it loads, the page then lets the blocks far off screen skip rendering again (an edit there
    took half as long again with every block rendered), each kept at the height it was drawn at: the reader who
    scrolls back up to the top, a screen at a time, sees nothing move."""
    path = "layers/layernorm/#exercise-layernorm-backward"
    page = open_recording_shifts(watched.page, site.url + path, viewport)
    assert_still(page, site, f"{path} at {viewport}")
    page.wait_for_function("!document.documentElement.classList.contains('lw-opened-mid-page')")
    two_frames(page)
    skipping = page.evaluate("[...document.querySelectorAll('.md-content__inner > *')].filter(Layerwise.notDrawn).length")
    assert skipping > 10, f"only {skipping} blocks far off screen skip rendering"
    page.mouse.move(VIEWPORTS[viewport]["width"] / 2, VIEWPORTS[viewport]["height"] / 2)
    for _ in range(100):
        if page.evaluate("scrollY") == 0:
            break
        page.mouse.wheel(0, -600)
        two_frames(page)
    assert page.evaluate("scrollY") == 0
    assert_still(page, site, f"{path} at {viewport}, scrolled back to the top")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_page_reloaded_in_the_middle_does_not_move(watched, site, viewport):
    """A reader scrolls down LayerNorm past its widgets and reloads: the browser restores the offset, and the page,
    its widgets going live, must not move under it."""
    path = "layers/layernorm/"
    page = open_recording_shifts(watched.page, site.url + path, viewport)
    page.wait_for_function(SETTLED, arg="ready" if site.live else "failed", timeout=90_000)
    page.mouse.move(VIEWPORTS[viewport]["width"] / 2, VIEWPORTS[viewport]["height"] / 2)
    for _ in range(15):  # a reader's scroll, a screen at a time: each block is drawn on the way
        page.mouse.wheel(0, 600)
        two_frames(page)
    offset = page.evaluate("scrollY")
    page.reload()
    assert_still(page, site, f"{path} reloaded at {offset} px at {viewport}")
    assert abs(page.evaluate("scrollY") - offset) < VIEWPORTS[viewport]["height"] / 2, "the offset was not restored"

def open_recording_shifts(page, url, viewport):
    """``url`` opened in ``page`` at the named viewport, every layout shift recorded from before the first paint."""
    page.set_viewport_size(VIEWPORTS[viewport])
    page.add_init_script(RECORD_SHIFTS)
    page.goto(url)
    return page


def assert_still(page, site, where):
    """Wait until the page is settled, then fail if what Chromium reported as moving adds up to more than MAX_CLS."""
    page.wait_for_function(SETTLED, arg="ready" if site.live else "failed", timeout=90_000)
    two_frames(page)  # shifts are reported after the frame that made them
    shifts = [s for s in page.evaluate("window.__layoutShifts") if not s["input"]]
    total = sum(s["value"] for s in shifts)
    listing = "\n".join(f"{s['value']:.4f} at {s['at']} ms: " + "; ".join(s["moved"]) for s in shifts)
    assert total <= MAX_CLS, f"{where}: cumulative layout shift {total:.4f} > {MAX_CLS}\n{listing}"


# Every exercise's code box, as laid out with JavaScript off (the static starter) and on (the editor made from it).
CODE_BOXES = """() => [...document.querySelectorAll('.lw-exercise')].map(el => {
    el.style.contentVisibility = 'visible';  // a block far off screen would report no layout
    const box = el.querySelector('.lw-exercise__code').getBoundingClientRect();
    return [el.id, Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10];
})"""


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_static_starter_takes_the_place_its_editor_will(browser, site, viewport):
    """The starter the page is built with is laid out as its editor (numbered, wrapped), so making the editor (in
    idle time, or at once when a link opens the page at the exercise) moves nothing around it."""
    path = "layers/layernorm/"
    static = browser.new_context(java_script_enabled=False, viewport=VIEWPORTS[viewport])
    page = static.new_page()
    page.goto(site.url + path)
    before = page.evaluate(CODE_BOXES)
    static.close()
    live = browser.new_context(viewport=VIEWPORTS[viewport], service_workers="block")
    page = live.new_page()
    page.goto(site.url + path)
    for exercise in page.locator(".lw-exercise").all():
        exercise.scroll_into_view_if_needed()
        exercise.locator(".cm-editor").wait_for()
    after = page.evaluate(CODE_BOXES)
    live.close()
    assert len(before) >= 2 and [b[0] for b in before] == [a[0] for a in after]
    for (name, width, height), (_, _, editor_height) in zip(before, after):
        assert abs(height - editor_height) <= 1, f"{name} at {viewport}: starter {height} px, editor {editor_height} px"


HEADER_BOXES = """() => [...document.querySelectorAll('.md-header__inner > *')].map(el => {
    const box = el.getBoundingClientRect();
    return [el.className, Math.round(box.x), Math.round(box.width)];
})"""


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_header_is_drawn_as_the_themes_script_will_leave_it(browser, site, viewport):
    """The theme's script runs after the first paint (every script is deferred): what it shows in the header (the
    search box, shown only with JavaScript) must already have its place when no script file has run yet, or the
    palette toggle beside it moves sideways (a 0.0009 shift Build your GPT's test caught)."""
    context = browser.new_context(viewport=VIEWPORTS[viewport], service_workers="block")
    page = context.new_page()
    context.route("**/*.js", lambda route: route.abort())  # the page as its first paint finds it
    page.goto(site.url + "layers/layernorm/")
    before = page.evaluate(HEADER_BOXES)
    context.unroute("**/*.js")
    page.reload()
    page.wait_for_function("window.document$ && document.querySelector('.md-search__form')")
    two_frames(page)
    after = page.evaluate(HEADER_BOXES)
    context.close()
    assert [box for box in before if box[2]] and before == after


class StallInTheHeader(SiteHandler):
    """Serves the site; a page's HTML is sent in two parts, a second apart, cut just before the header's search box:
    the stall a busy machine makes when the parser stops after the palette's inline scripts, made certain."""
    CUT = '<label class="md-header__button md-icon" for="__search">'

    def do_GET(self):
        if not self.path.endswith("/"):
            return super().do_GET()
        html = (Path(self.directory) / self.path.lstrip("/") / "index.html").read_bytes()
        head, rest = html.split(self.CUT.encode(), 1)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(head)
        self.wfile.flush()
        time.sleep(1)
        self.wfile.write(self.CUT.encode() + rest)


# Each frame until the page has loaded: how many header parts are there, and where the palette toggle is.
RECORD_HEADER_FRAMES = """
window.__headerFrames = [];
const record = () => {
  const toggle = document.querySelector('.md-header__option');
  window.__headerFrames.push([document.querySelectorAll('.md-header__inner > *').length,
                              toggle && Math.round(toggle.getBoundingClientRect().x)]);
  if (document.readyState !== 'complete') requestAnimationFrame(record);
};
requestAnimationFrame(record);
"""


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_no_frame_is_drawn_before_the_header_is_whole(browser, site, viewport):
    """The HTML stalls after the palette toggle: no frame may be drawn with the toggle there but the search box not
    yet, or the toggle moves sideways when it comes (what Build your GPT's zero-shift check caught on a busy machine).
    An animation frame callback runs only for a frame the browser is about to draw."""
    server = start_server(site.root, handler=StallInTheHeader)
    context = browser.new_context(viewport=VIEWPORTS[viewport], service_workers="block")
    page = context.new_page()
    page.add_init_script(RECORD_HEADER_FRAMES + RECORD_SHIFTS)
    page.goto(f"http://127.0.0.1:{server.server_port}/layers/layernorm/", wait_until="load")
    two_frames(page)
    frames, shifts = page.evaluate("[window.__headerFrames, window.__layoutShifts]")
    context.close()
    server.shutdown()
    server.server_close()
    whole = frames[-1]
    assert whole[0] >= 4 and whole[1] is not None
    drawn = list(dict.fromkeys(map(tuple, frames)))
    assert drawn == [tuple(whole)], f"frames drawn as (header parts, toggle x): {drawn}"
    assert [shift for shift in shifts if any("md-header" in moved for moved in shift["moved"])] == []
