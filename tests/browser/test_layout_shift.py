"""Nothing moves after first paint: a layer page loads on a 412 px phone and a 1280 px screen, its engine goes live
(with PYODIDE_DIST; without it, it fails and says so), its practice section and knowledge checks are set up, its
fonts arrive, and the layout shifts Chromium reports over all of that add up to at most 0.02 (the limit asked of
Lighthouse's CLS, which counts only the worst burst: a sum is stricter). A failure lists the shifts and what moved."""
import pytest

pytestmark = pytest.mark.browser

MAX_CLS = 0.02
PAGES = ["layers/layernorm/", "layers/attention/", "layers/embedding/", "model/model/"]
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
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
@pytest.mark.parametrize("path", PAGES)
def test_a_layer_page_does_not_move_while_it_loads_and_goes_live(watched, site, path, viewport):
    page = watched.page
    page.set_viewport_size(VIEWPORTS[viewport])
    page.add_init_script(RECORD_SHIFTS)
    page.goto(site.url + path)
    page.wait_for_function(SETTLED, arg="ready" if site.live else "failed", timeout=90_000)
    page.evaluate(TWO_FRAMES)  # shifts are reported after the frame that made them
    shifts = [s for s in page.evaluate("window.__layoutShifts") if not s["input"]]
    total = sum(s["value"] for s in shifts)
    listing = "\n".join(f"{s['value']:.4f} at {s['at']} ms: " + "; ".join(s["moved"]) for s in shifts)
    assert total <= MAX_CLS, f"{path} at {viewport}: cumulative layout shift {total:.4f} > {MAX_CLS}\n{listing}"
