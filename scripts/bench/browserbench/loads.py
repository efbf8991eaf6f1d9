"""Cold and warm page loads in headless Chromium with on-disk profiles, as a returning reader has them.

Cold: a fresh ``user_data_dir`` (empty HTTP and code caches). Warm: a reload in the same persistent context, whose
disk cache keeps the 8.6 MB ``pyodide.asm.wasm`` (``browser.new_context()`` keeps an in-memory cache with an entry
limit below that, so its "warm" reloads fetch the wasm again). No request routing: Playwright's ``route()``
disables the HTTP cache.
"""
import tempfile
from contextlib import contextmanager

from browserbench import chromium

WASM = "pyodide.asm.wasm"
READY_TIMEOUT_MS = 120_000

# Registered before any page script runs, so the long tasks of the whole load are seen (buffered: true also
# delivers entries from before the observer existed, where Chromium keeps them).
LONG_TASK_RECORDER = """if (typeof window !== 'undefined') {
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__benchLongTasks.push([e.startTime, e.duration]);
  }).observe({type: 'longtask', buffered: true});
}"""

WIDGETS_READY = ("window.Layerwise && Layerwise.engine && (Layerwise.engine.state === 'ready'"
                 " ? Layerwise.engine.readyAt : (Layerwise.engine.state === 'failed'"
                 " ? (() => { throw new Error(Layerwise.engine.reason) })() : 0))")
BARE_READY = "window.bareError ? (() => { throw new Error(window.bareError) })() : (window.bareReady || 0)"
FIRST_PAINT = "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0"
# For a page without an engine: "ready" after a fixed time, so its long tasks are counted over a window as long as a
# widget page's load (its first paint is read separately).
SETTLED_AFTER_MS = 4000
SETTLED = f"performance.now() > {SETTLED_AFTER_MS} ? performance.now() : 0"


@contextmanager
def fresh_profile(playwright):
    """A persistent context on a new, empty on-disk profile, with the long-task recorder installed."""
    with tempfile.TemporaryDirectory(prefix="lw-bench-profile-") as folder:
        context = playwright.chromium.launch_persistent_context(
            folder, executable_path=chromium.executable(), args=chromium.ARGS, headless=True)
        context.add_init_script(LONG_TASK_RECORDER)
        try:
            yield context
        finally:
            context.close()


class Load:
    """Navigations or reloads of a context's page, each until ``ready_js`` is truthy (it returns ms after navigation
    start). Requests are watched on the context: the page's events do not carry its workers' requests."""

    def __init__(self, context, ready_js):
        self.page = context.pages[0] if context.pages else context.new_page()
        self.ready_js, self.requests = ready_js, []
        context.on("requestfinished", lambda request: self.requests.append(request))

    def run(self, url=None):
        self.requests.clear()
        if url:
            self.page.goto(url)
        else:
            self.page.reload()
        self.page.wait_for_function(self.ready_js, timeout=READY_TIMEOUT_MS)
        ready_ms = self.page.evaluate(self.ready_js)
        page = self.page
        return {
            "ready": ready_ms / 1000,
            "fcp": page.evaluate(FIRST_PAINT) / 1000,
            "long tasks": [d for start, d in page.evaluate("window.__benchLongTasks || []") if start < ready_ms],
            "bytes": sum(wire_bytes(r) for r in self.requests),
            "wasm bytes": sum(wire_bytes(r) for r in self.requests if r.url.endswith(WASM)),
            "wasm requests": sum(r.url.endswith(WASM) for r in self.requests),
            "wasm downloads": sum(r.url.endswith(WASM) and wire_bytes(r) > 100_000 for r in self.requests),
            "wasm requested": self._requested_ms(WASM),
            "timeline": page.evaluate("window.Layerwise && Layerwise.engine ? Layerwise.engine.timeline : null"),
        }

    def _requested_ms(self, suffix):
        """When the first request for ``suffix`` started, ms after navigation start (None if there was none)."""
        origin = self.page.evaluate("performance.timeOrigin")
        starts = [r.timing["startTime"] - origin for r in self.requests if r.url.endswith(suffix)]
        return min(starts) if starts else None


def wire_bytes(request):
    """Bytes that came over the network for a finished request: 0 when served from the disk cache (Chromium then
    reports an encoded length of 0, so body size = -headers)."""
    sizes = request.sizes()
    return max(0, sizes["responseBodySize"] + sizes["responseHeadersSize"])


def worker_wasm_transfer(page):
    """The engine worker's own view of the wasm fetch: [transferSize, decodedBodySize] per resource timing entry
    (transferSize 0 = served from cache, a few hundred bytes = revalidated with a 304)."""
    for worker in page.workers:
        if worker.url.endswith("/worker.js"):
            return worker.evaluate(f"""performance.getEntriesByType('resource')
                .filter(e => e.name.endsWith('{WASM}')).map(e => [e.transferSize, e.decodedBodySize])""")
    return None
