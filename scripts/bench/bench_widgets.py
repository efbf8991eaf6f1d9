"""Benchmark the live widgets as a reader feels them, in headless Chromium on localhost (needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_widgets.py [--runs 5] [--quick] [--page layers/layernorm/]

Every row is min/median/max over interleaved rounds in shuffled order (machine load hits all variants alike), and
every ratio compares medians from the same run. Cold = a fresh on-disk profile; warm = a reload in that profile
(the bench asserts that the warm reload transferred no pyodide.asm.wasm bytes). Rows, with the targets of issue 12:
- navigation -> engine ready, cold and warm, as a ratio to a bare page whose worker only loads Pyodide + NumPy
  (<= 1.10x), to one that restores the interpreter from the site's memory snapshot first as the site's workers do
  (the page's own cost), and the page without mkdocs-material's bundle (diagnostic: the theme's share of the gap);
- main-thread long tasks from navigation to engine ready, cold (sum <= 300 ms, none over 150 ms), and for the page
  without the widgets over its first seconds (the share of the theme and of rendering the text);
- first contentful paint, cold, against the same page without the widgets' scripts and CSS (<= 1.15x);
- edit -> updated DOM over edits typed key by key on the LayerNorm and Attention widgets (p50 <= 5, p95 <= 8 ms),
  beside the same requests from a bare page with one cell (the floor this machine allows);
- instant navigation between widget pages -> widgets live (p95 < 250 ms) and -> the first live result.
"""
import argparse
import os
import random
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import loads, variants  # noqa: E402
from browserbench.edits import STEPS, type_edits  # noqa: E402
from browserbench.served import built_and_served  # noqa: E402

FULL = {"edits": 200, "navigations": 20}
QUICK = {"runs": 1, "edits": 15, "navigations": 4}
EDITED_KINDS = ("layernorm", "attention")
COLD_ROWS = ("widgets cold", "bare cold")
LONG_TASK_ROWS = COLD_ROWS + ("without-widgets cold",)  # the same page without the widgets: the theme's and the text's share


def spread(values, unit="s", scale=1.0):
    values = sorted(v * scale for v in values)
    digits = 3 if unit == "s" else 1
    return f"{values[0]:.{digits}f}/{statistics.median(values):.{digits}f}/{values[-1]:.{digits}f} {unit}"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def page_with_kind(root, kind):
    for html in sorted(Path(root).rglob("index.html")):
        if f'data-kind="{kind}"' in html.read_text(encoding="utf-8"):
            return html.parent.relative_to(root).as_posix() + "/"
    sys.exit(f"no page of the built site shows a {kind!r} widget")


class Rounds:
    """Cold loads (each in a fresh profile), optionally followed by a warm reload in the same profile."""

    def __init__(self, playwright, url):
        self.playwright, self.url, self.samples = playwright, url, {}

    def add(self, name, value):
        self.samples.setdefault(name, []).append(value)

    def measure(self, name, path, ready_js, warm):
        with loads.fresh_profile(self.playwright) as context:
            load = loads.Load(context, ready_js)
            cold = load.run(self.url + path)
            if cold["wasm downloads"] > 1:
                sys.exit(f"{name}: a cold load downloaded {loads.WASM} {cold['wasm downloads']} times (an early "
                         "fetch of it that the worker's request could not reuse?)")
            self.add(f"{name} cold", cold)
            if warm:
                result = load.run()
                if result["wasm bytes"]:
                    sys.exit(f"{name}: the warm reload transferred {result['wasm bytes']} bytes of {loads.WASM}: "
                             "the disk cache did not keep it, so 'warm' would not be warm")
                self.add(f"{name} warm", result)

    def values(self, key, metric):
        return [sample[metric] for sample in self.samples.get(key, [])]

    def median(self, key, metric):
        return statistics.median(self.values(key, metric))


def measure_loads(rounds, jobs, runs):
    for run in range(runs):
        order = list(jobs)
        random.Random(run).shuffle(order)
        for name, path, ready_js, warm in order:
            rounds.measure(name, path, ready_js, warm)
        print(f"  round {run + 1}/{runs} done", file=sys.stderr)


def report_loads(rounds, page_path):
    print("navigation -> engine ready (min/median/max):")
    for key in rounds.samples:
        if not key.startswith("without-widgets"):
            print(f"  {key:28s} {spread(rounds.values(key, 'ready'))}")
    for temp in ("cold", "warm"):
        ratio = rounds.median(f"widgets {temp}", "ready") / rounds.median(f"bare {temp}", "ready")
        print(f"  ratio widgets/bare, {temp}: {ratio:.2f}x  (target <= 1.10x)")
        ratio = rounds.median(f"widgets {temp}", "ready") / rounds.median(f"bare-snapshot {temp}", "ready")
        print(f"  ratio widgets/bare-snapshot (the same start, the page's own cost), {temp}: {ratio:.2f}x")
    if "without-theme-js cold" in rounds.samples:
        ratio = rounds.median("without-theme-js cold", "ready") / rounds.median("bare cold", "ready")
        print(f"  diagnostic: page without mkdocs-material's bundle / bare, cold: {ratio:.2f}x")
    for key in COLD_ROWS:
        if key in rounds.samples:
            requested = [ms for ms in rounds.values(key, "wasm requested") if ms is not None]
            print(f"  {loads.WASM} requested, {key:20s} {spread(requested, 'ms')} after navigation start")
    for key in ("widgets warm", "bare warm"):
        print(f"  {loads.WASM} over the wire, {key}: {max(rounds.values(key, 'wasm bytes'))} bytes "
              f"(asserted 0; {max(rounds.values(key, 'wasm requests'))} request(s) answered by the disk cache)")
    for key in COLD_ROWS:
        if key in rounds.samples:
            print(f"  bytes over the wire until ready, {key:20s} {rounds.median(key, 'bytes') / 1e6:.2f} MB (median)")
            print(f"  {loads.WASM} per cold load, {key}: requests {sorted(set(rounds.values(key, 'wasm requests')))}, "
                  f"downloads {sorted(set(rounds.values(key, 'wasm downloads')))} (asserted <= 1)")

    print(f"main-thread long tasks, navigation -> engine ready, cold ({page_path}; without-widgets: the first "
          f"{loads.SETTLED_AFTER_MS / 1000:.0f} s):")
    for key in LONG_TASK_ROWS:
        if key in rounds.samples:
            tasks = rounds.values(key, "long tasks")
            print(f"  {key:20s} sum {spread([sum(t) for t in tasks], 'ms')}, "
                  f"longest {spread([max(t, default=0) for t in tasks], 'ms')}, "
                  f"count {statistics.median(len(t) for t in tasks):.0f} (median)  (target sum <= 300, max <= 150)")

    steps = rounds.values("widgets cold", "timeline")[-1] or []
    print("  one cold start, ms after navigation start: " + ", ".join(f"{stage} {ms:.0f}" for stage, ms in steps))

    print("first contentful paint, cold:")
    for key in ("widgets cold", "without-widgets cold"):
        if key in rounds.samples:
            print(f"  {key:28s} {spread(rounds.values(key, 'fcp'), 'ms', 1000)}")
    ratio = rounds.median("widgets cold", "fcp") / rounds.median("without-widgets cold", "fcp")
    print(f"  ratio with/without the widgets' scripts and CSS: {ratio:.2f}x  (target <= 1.15x)")


def open_live(context, url):
    """Open a widget page, bring its first widget on screen (which starts the engine) and wait for the engine."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.locator(".lw-widget").first.scroll_into_view_if_needed()
    page.wait_for_function(loads.WIDGETS_READY, timeout=loads.READY_TIMEOUT_MS)
    return page


def measure_edits(playwright, url, root, edits):
    print(f"edit -> updated DOM, {edits} edits typed key by key (highlighting of changed cells on); 'alone': the "
          "same page with its article cut to its title and that widget (the floor of a page showing it); 'bare': "
          "the same requests from a page with one cell and the site's worker, answered into one text node (the "
          "floor of any page):")
    for kind in EDITED_KINDS:
        path = page_with_kind(root, kind)
        pages = {kind: path, "alone": variants.add_widget_alone_page(root, path, kind),
                 "bare": variants.add_bare_edit_page(root, path, kind)}
        times = {name: [] for name in pages}
        for half, seed in enumerate((0, 1)):  # interleaved halves: a slow spell of the machine hits both pages
            for name in (list(pages) if half == 0 else list(pages)[::-1]):
                with loads.fresh_profile(playwright) as context:
                    page = open_live(context, url + pages[name])
                    times[name] += type_edits(page, f'.lw-widget[data-kind="{kind}"]', edits // 2, seed=seed)
        for name, typed in times.items():
            dom, frame = [t[0] for t in typed], [t[1] for t in typed]
            python = [t[2] for t in typed if t[2] is not None]
            print(f"  {name:10s} to DOM: p50 {percentile(dom, 50):.1f} ms, p95 {percentile(dom, 95):.1f} ms, "
                  f"max {max(dom):.1f} ms; to the next frame: p50 {percentile(frame, 50):.1f} ms, "
                  f"p95 {percentile(frame, 95):.1f} ms" + ("  (target p50 <= 5, p95 <= 8 ms)" if name == kind else ""))
            if python:
                print(f"  {'':10s} of which in Python (worker): p50 {percentile(python, 50):.1f} ms, "
                      f"p95 {percentile(python, 95):.1f} ms")
            timed = [t[3] for t in typed if t[3]]
            if timed:
                by_step = {step: [steps[step] for steps in timed] for step in STEPS}
                print(f"  {'':10s} steps, p50 / p95 ms: " + "; ".join(
                    f"{step} {percentile(ms, 50):.1f} / {percentile(ms, 95):.1f}" for step, ms in by_step.items()))
        to_dom = {name: [t[0] for t in typed] for name, typed in times.items()}
        print(f"  {'':10s} to DOM as a ratio to bare, p50 / p95: " + "; ".join(
            f"{name} {percentile(to_dom[name], 50) / percentile(to_dom['bare'], 50):.2f}x / "
            f"{percentile(to_dom[name], 95) / percentile(to_dom['bare'], 95):.2f}x" for name in (kind, "alone")))


NAVIGATE = """async (target) => {
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
}"""


def measure_navigation(playwright, url, pages, count):
    with loads.fresh_profile(playwright) as context:
        page = open_live(context, url + pages[0])
        live_ms, result_ms = [], []
        for n in range(count):
            live, result = page.evaluate(NAVIGATE, url + pages[(n + 1) % 2])
            live_ms.append(live)
            result_ms.append(result)
        starts = page.evaluate("Layerwise.engine.starts")
    print(f"instant navigation between {pages[0]} and {pages[1]}, {count} times:")
    print(f"  -> widgets live: p95 {percentile(live_ms, 95):.1f} ms, {spread(live_ms, 'ms')}  (target p95 < 250 ms)")
    print(f"  -> first live result after an edit (set by script): {spread(result_ms, 'ms')}")
    print(f"  workers started in the tab: {starts}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="interleaved rounds of cold + warm loads")
    parser.add_argument("--page", default="layers/layernorm/", help="a page with a widget (site-relative)")
    parser.add_argument("--second-page", default="layers/attention/",
                        help="a widget page reached by instant navigation")
    parser.add_argument("--quick", action="store_true", help=f"a smoke run: {QUICK}")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        sys.exit("PYODIDE_DIST is not set: the benchmark needs a self-hosted Pyodide with NumPy (../shared/README.md)")
    sizes = {**FULL, "runs": args.runs, **(QUICK if args.quick else {})}

    from playwright.sync_api import sync_playwright
    with built_and_served(dist) as (root, url):
        widget_id = (root / args.page / "index.html").read_text().split('data-widget-id="', 1)[1].split('"', 1)[0]
        anchor = f"#widget-{widget_id}"  # the widget is on screen, so the engine starts as soon as the script runs
        config = (root / "assets" / "layerwise" / "engine-config.js").read_text()
        snapshot = re.search(r'"snapshot": "([^"]+)"', config).group(1)
        jobs = [("bare", variants.add_bare_page(root), loads.BARE_READY, True),
                ("bare-snapshot", variants.add_bare_page(root, snapshot), loads.BARE_READY, True),
                ("widgets", args.page + anchor, loads.WIDGETS_READY, True),
                ("without-widgets", variants.add_variant(root, args.page, "without-widgets") + anchor,
                 loads.SETTLED, False)]
        if not args.quick:
            jobs.append(("without-theme-js", variants.add_variant(root, args.page, "without-theme-js") + anchor,
                         loads.WIDGETS_READY, False))
        print(f"Pyodide from {dist}, page {args.page}, {sizes['runs']} round(s)"
              + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))
        with sync_playwright() as playwright:
            rounds = Rounds(playwright, url)
            measure_loads(rounds, jobs, sizes["runs"])
            report_loads(rounds, args.page)
            measure_edits(playwright, url, root, sizes["edits"])
            measure_navigation(playwright, url, [args.page, args.second_page], sizes["navigations"])


if __name__ == "__main__":
    main()
