"""Benchmark the live widgets in headless Chromium on localhost (needs PYODIDE_DIST): min/median/max of 5 runs.

  PYODIDE_DIST=/path .venv/bin/python scripts/bench_widgets.py [--runs 5] [--page layers/linear/]

Measures navigation -> engine ready (cold: fresh browser context; warm: same context, HTTP cache primed) as a ratio
to a bare page that only loads Pyodide + NumPy in a worker, measured in the same run; bytes until ready; edit ->
updated DOM p50/p95 over 200 edits (50 ms apart, as a fast reader); and time to a live widget and to its first result after instant navigation.
Targets: ready <= 1.1x bare, edit p95 <= 16 ms, second page live < 200 ms. No request routing: Playwright's
route() would disable the HTTP cache and turn warm runs cold.

A diagnostic row loads the same page with mkdocs-material's JavaScript bundle removed (everything else equal), to
show how much of the gap to the bare page is the theme's own main-thread work competing for the cores.
"""
import argparse
import os
import re
import socket
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from livewidgets.serve import start_server  # noqa: E402
from livewidgets.sitebuild import build_site  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
THEME_OFF = "without-theme-js"  # holds the page under test minus mkdocs-material's bundle, at the same depth
EDITS = 200
THINK_MS = 50  # between edits: nobody types 20 values a second, and the gradient check runs in this pause

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare</title><script>
const worker = new Worker("worker.js");
worker.onmessage = (e) => { window.bareReady = performance.now(); window.bareError = e.data.error; };
</script>"""
BARE_WORKER = """importScripts("../pyodide/pyodide.js");
loadPyodide({indexURL: "../pyodide/"}).then(async (py) => { await py.loadPackage("numpy");
  py.runPython("import numpy"); postMessage({}); }).catch((e) => postMessage({error: String(e)}));"""


def spread(values, unit="s", scale=1.0):
    values = sorted(v * scale for v in values)
    return f"{values[0]:.3f}/{statistics.median(values):.3f}/{values[-1]:.3f} {unit} (min/median/max)"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Bench:
    def __init__(self, browser, url, page_path):
        self.browser, self.url, self.page_path = browser, url, page_path

    def _load(self, context, path, ready_js):
        """Navigate and return (seconds from navigation start to ready, bytes received until then)."""
        sizes = []
        context.on("requestfinished", lambda r: sizes.append(r))
        page = context.new_page()
        page.goto(self.url + path)
        page.wait_for_function(ready_js, timeout=120_000)
        ready_ms = page.evaluate(ready_js)
        total = sum((r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"]) for r in sizes)
        page.close()
        return ready_ms / 1000, total

    def timeline(self, context):
        page = context.new_page()
        page.goto(self.url + self.page_path + f"#widget-{self.first_widget_id}")
        page.wait_for_function("Layerwise.engine.state === 'ready'", timeout=120_000)
        steps = page.evaluate("Layerwise.engine.timeline")
        page.close()
        return steps

    def widget_ready(self, context, page_path=None):
        return self._load(context, (page_path or self.page_path) + f"#widget-{self.first_widget_id}",
                          "Layerwise.engine.state === 'ready' ? Layerwise.engine.readyAt : "
                          "(Layerwise.engine.state === 'failed' ? (() => { throw Layerwise.engine.reason })() : 0)")

    def theme_off_ready(self, context):
        return self.widget_ready(context, THEME_OFF + "/" + self.page_path.split("/", 1)[1])

    def bare_ready(self, context):
        return self._load(context, "bare/",
                          "window.bareError ? (() => { throw window.bareError })() : (window.bareReady || 0)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", default="layers/linear/", help="a page with a widget (site-relative)")
    parser.add_argument("--second-page", default="layers/layernorm/", help="reached by instant navigation")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        sys.exit("PYODIDE_DIST is not set: the benchmark needs a self-hosted Pyodide with NumPy (../shared/README.md)")

    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        url = f"http://127.0.0.1:{port}/"
        root = build_site(Path(tmp) / "site", url, dist, strict=False)
        (root / "bare").mkdir()
        (root / "bare" / "index.html").write_text(BARE_PAGE)
        (root / "bare" / "worker.js").write_text(BARE_WORKER)
        server = start_server(root, port)
        html = (root / args.page / "index.html").read_text()
        theme_off = root / THEME_OFF / args.page.split("/", 1)[1]
        theme_off.mkdir(parents=True)
        (theme_off / "index.html").write_text(re.sub(r'<script src="[^"]*/bundle\.[^"]*"></script>', "", html))
        first_widget_id = html.split('data-widget-id="', 1)[1].split('"', 1)[0]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            bench = Bench(browser, url, args.page)
            bench.first_widget_id = first_widget_id
            report(browser, bench, args)
            browser.close()
        server.shutdown()
        server.server_close()


def report(browser, bench, args):
    results = {"bare cold": [], "widgets cold": [], "bare warm": [], "widgets warm": [], "no theme JS cold": []}
    bytes_seen = {"bare": [], "widgets": [], "no theme JS": []}
    for _ in range(args.runs):  # alternate, so machine load hits all alike
        for name, measure in (("bare", bench.bare_ready), ("widgets", bench.widget_ready),
                              ("no theme JS", bench.theme_off_ready)):
            context = browser.new_context()
            seconds, size = measure(context)
            results[f"{name} cold"].append(seconds)
            bytes_seen[name].append(size)
            context.close()
    for name, measure in (("bare", bench.bare_ready), ("widgets", bench.widget_ready)):
        context = browser.new_context()
        measure(context)  # prime the HTTP cache
        for _ in range(args.runs):
            results[f"{name} warm"].append(measure(context)[0])
        context.close()

    print(f"Pyodide from {os.environ['PYODIDE_DIST']}, page {args.page}, {args.runs} runs each")
    for key, values in results.items():
        print(f"  navigation -> ready, {key:16s} {spread(values)}")
    for temp in ("cold", "warm"):
        ratio = statistics.median(results[f"widgets {temp}"]) / statistics.median(results[f"bare {temp}"])
        print(f"  ready ratio widgets/bare ({temp}, medians): {ratio:.2f}x  (target <= 1.1x)")
    ratio = statistics.median(results["no theme JS cold"]) / statistics.median(results["bare cold"])
    print(f"  diagnostic: the same page without mkdocs-material's bundle / bare (cold, medians): {ratio:.2f}x")
    context = browser.new_context()
    steps = bench.timeline(context)
    context.close()
    print("  one cold start, ms after navigation start: " + ", ".join(f"{stage} {ms:.0f}" for stage, ms in steps))
    for name, sizes in bytes_seen.items():
        print(f"  bytes until ready, {name:8s} {statistics.median(sizes) / 1e6:.2f} MB (median, cold)")

    context = browser.new_context()
    page = context.new_page()
    page.goto(bench.url + args.page + f"#widget-{bench.first_widget_id}")
    page.wait_for_function("Layerwise.engine.state === 'ready'", timeout=120_000)
    edit_ms = page.evaluate("""async (count) => {
        const w = Layerwise.widgets()[0];
        const name = w.spec.inputs.find(i => !i.integer).name;
        const cell = w.el.querySelector(`.lw-cell[data-input="${name}"]`);
        const times = [];
        for (let i = 0; i < count; i++) {
            const done = new Promise(r => w.el.addEventListener('layerwise:rendered', r, {once: true}));
            const t0 = performance.now();
            cell.value = String((i % 19) / 4 - 2);
            cell.dispatchEvent(new Event('input', {bubbles: true}));
            await done;
            times.push(performance.now() - t0);
            await new Promise(r => setTimeout(r, THINK_MS));  // a reader's pause; the deferred gradient check runs here
        }
        return times;
    }""".replace("THINK_MS", str(THINK_MS)), EDITS)
    print(f"  edit -> updated DOM over {EDITS} edits: p50 {percentile(edit_ms, 50):.2f} ms, "
          f"p95 {percentile(edit_ms, 95):.2f} ms, max {max(edit_ms):.2f} ms  (target p95 <= 16 ms)")

    live_ms, result_ms = [], []
    pages = [args.second_page, args.page]
    for run in range(args.runs):
        target = bench.url + pages[run % 2]
        timings = page.evaluate("""async (target) => {
            const before = Layerwise.widgets();
            const t0 = performance.now();
            let link = [...document.querySelectorAll('a[href]')].find(a => a.href === target);
            if (!link) { link = document.createElement('a'); link.href = target; document.body.append(link); }
            link.click();
            while (Layerwise.widgets() === before || !Layerwise.widgets().length
                   || Layerwise.widgets()[0].el.dataset.state !== 'live') {
                await new Promise(r => setTimeout(r, 1));
            }
            const live = performance.now() - t0;
            const w = Layerwise.widgets()[0];
            const done = new Promise(r => w.el.addEventListener('layerwise:rendered', r, {once: true}));
            const cell = w.el.querySelector('.lw-cell');
            cell.value = String(Number(cell.value) + 1);
            cell.dispatchEvent(new Event('input', {bubbles: true}));
            await done;
            return [live, performance.now() - t0];
        }""", target)
        live_ms.append(timings[0])
        result_ms.append(timings[1])
    print(f"  instant navigation -> widget live: {spread(live_ms, 'ms')}  (target < 200 ms)")
    print(f"  instant navigation -> first live result after an edit: {spread(result_ms, 'ms')}")
    print(f"  workers started in this tab: {page.evaluate('Layerwise.engine.starts')}")
    context.close()


if __name__ == "__main__":
    main()
