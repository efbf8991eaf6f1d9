"""A page's scripts start after its first paint is shown, in the order the build wrote them, each file fetched once
(layerwise_build/pagescripts.py and pagescripts.js; tests/site/test_page_scripts_build.py checks what the build writes).
Started before that paint, their work counted in it whenever headless Chromium held the frame (Lighthouse)."""
import pytest

pytestmark = pytest.mark.browser

# Noted as the page loads, before any script of its own: what was painted when each script was put back.
RECORD_STARTS = """{
    window.__starts = [];
    new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) {
            if (node.nodeName === 'SCRIPT' && 'afterFirstFrame' in node.dataset) window.__starts.push({
                src: node.src, module: node.type === 'module',
                paints: performance.getEntriesByType('paint').map((entry) => entry.name),
            });
        }
    }).observe(document, { childList: true, subtree: true });
    addEventListener('DOMContentLoaded', () => {
        window.__written = [...document.querySelectorAll('script[type="layerwise/after-first-frame"]')]
            .map((held) => ({ src: held.src, module: held.hasAttribute('data-module') }));
    });
}"""
# what the page still asks the browser to preload: its scripts' preloads are removed once they are started (the
# theme's bundle, writing each relative href out in full, would have a classic script's preload fetch it again)
PRELOADS = """() => [...document.querySelectorAll('link[rel=preload][as=script], link[rel=modulepreload]')]
    .map((link) => link.href)"""
# A browser that reports no paints (the starter then waits for two animation frames)
NO_PAINT_TIMING = """Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', {
    get: () => ['mark', 'measure', 'navigation', 'resource'], configurable: true,
});"""


def test_the_scripts_start_after_the_first_paint_in_the_order_written(watched, site):
    page = watched.page
    page.add_init_script(RECORD_STARTS)
    page.goto(site.url + "layers/layernorm/")  # returns once the last has run (browser_pages.waits_for_scripts)
    starts, written = page.evaluate("[window.__starts, window.__written]")
    assert [{"src": s["src"], "module": s["module"]} for s in starts] == written
    assert "/javascripts/bundle." in starts[0]["src"] and len(starts) > 10
    assert all(s["paints"] for s in starts), "a script was started before the first paint was shown"
    assert page.evaluate("typeof document$ === 'object' && Layerwise.widgets().length > 0")
    fetched = page.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name)")
    sources = sorted(w["src"] for w in written)
    assert sorted(url for url in fetched if url in sources) == sources, "a script was fetched twice, or never"
    assert page.evaluate("document.querySelectorAll('script[type=\"layerwise/after-first-frame\"]').length") == 0
    assert page.evaluate(PRELOADS) == []


def test_with_the_first_frame_held_until_the_page_is_parsed_the_scripts_still_wait_for_its_paint(watched, site):
    """Headless Chromium sometimes holds the first frame; here the page's own head holds it until the whole page is
    parsed (an expected element that never comes), so DOMContentLoaded and the first frame come together: a start on
    that frame, before it is shown, ran before the first paint."""
    url = site.url + "layers/layernorm/"

    def held_until_parsed(route):
        html = route.fetch().text()
        route.fulfill(body=html.replace("<head>", '<head><link rel="expect" href="#lw-never" blocking="render">', 1),
                      content_type="text/html; charset=utf-8")

    watched.context.route(url, held_until_parsed)
    page = watched.page
    page.add_init_script(RECORD_STARTS)
    page.goto(url)
    starts, written = page.evaluate("[window.__starts, window.__written]")
    assert [s["src"] for s in starts] == [w["src"] for w in written] and len(written) > 10
    assert all(s["paints"] for s in starts), "a script was started before the first paint was shown"


def test_without_paint_timing_the_scripts_still_start(watched, site):
    page = watched.page
    page.add_init_script(NO_PAINT_TIMING)
    page.add_init_script(RECORD_STARTS)
    page.goto(site.url + "layers/layernorm/")
    starts, written = page.evaluate("[window.__starts, window.__written]")
    assert [s["src"] for s in starts] == [w["src"] for w in written] and len(written) > 10
    assert page.evaluate("typeof document$ === 'object' && Layerwise.widgets().length > 0")
