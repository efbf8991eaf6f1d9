"""A reader follows a heading of the table of contents, in headless Chromium with its CPU slowed 4x (needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_jumps.py [--runs 5] [--page layers/layernorm/]
      [--target implementation]

The page loads with its engine and settles (2.5 s after mkdocs-material has read the sitemap), the CPU is slowed, and
the sidebar's link to the target is clicked at 1280 px. Rows, min/median/max over interleaved runs of the page as
built and of the page without its own handling of moves within it (browserbench/variants.py, "without-jumps", where
mkdocs-material's instant navigation fetches the page again and swaps it in): main-thread long tasks in the 4 s after
the click (sum, longest), and when the target was on screen with the five blocks after it still for ten frames.
"""
import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import chromium, loads, served, variants  # noqa: E402

SITEMAP_READ = """{
  const parse = DOMParser.prototype.parseFromString;
  DOMParser.prototype.parseFromString = function (text, type) {
    const parsed = parse.call(this, text, type);
    if (type === "text/xml") window.__benchSitemapRead = true;
    return parsed;
  };
}"""
# Every frame for 4 s from now: the target's top and the five blocks' after it; the first time they were all the same
# for ten frames with the target near the top of the view, in ms after the click (less those ten frames).
WATCH_TARGET = """id => {
  window.__benchStill = null;
  const start = performance.now();
  let last = null, same = 0;
  const frame = () => {
    const target = document.getElementById(id);
    const blocks = [...document.querySelector('.md-content__inner').children];
    const at = blocks.indexOf(target.closest('.md-content__inner > *'));
    const tops = [target, ...blocks.slice(at + 1, at + 6)].map((el) => Math.round(el.getBoundingClientRect().top));
    const near = tops[0] >= 0 && tops[0] < innerHeight / 4;
    same = near && String(tops) === last ? same + 1 : 0;
    if (same === 10 && window.__benchStill === null) window.__benchStill = performance.now() - start - 10 * 1000 / 60;
    last = String(tops);
    if (performance.now() - start < 4000) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return start;
}"""


def follow(browser, url, target):
    """One click on the sidebar's link to ``target`` of the page at ``url``: (long tasks sum, longest, still) in ms."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(SITEMAP_READ)
        page.add_init_script(loads.LONG_TASK_RECORDER)
        page.goto(url)
        page.wait_for_function("window.__benchSitemapRead === true")
        page.wait_for_timeout(2500)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        start = page.evaluate(WATCH_TARGET, target)
        page.locator(f".md-sidebar--secondary a[href$='#{target}']").click()
        page.wait_for_timeout(4500)
        tasks = [duration for at, duration in page.evaluate("window.__benchLongTasks") if at >= start]
        return sum(tasks), max(tasks, default=0), page.evaluate("window.__benchStill")
    finally:
        context.close()


def spread(values):
    values = sorted(values)
    return f"{values[0]:.0f}/{statistics.median(values):.0f}/{values[-1]:.0f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", default="layers/layernorm/")
    parser.add_argument("--target", default="implementation", help="the id of a heading far below the first screen")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        sys.exit("PYODIDE_DIST is not set: the benchmark needs a self-hosted Pyodide with NumPy (../shared/README.md)")
    from playwright.sync_api import sync_playwright
    with served.built_and_served(dist) as (root, url):
        pages = {"as built": args.page, "without-jumps": variants.add_variant(root, args.page, "without-jumps")}
        results = {name: [] for name in pages}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium.executable(), args=chromium.ARGS)
            for run in range(args.runs):
                for name in (list(pages) if run % 2 == 0 else list(pages)[::-1]):
                    results[name].append(follow(browser, url + pages[name], args.target))
                print(f"  run {run + 1}/{args.runs} done", file=sys.stderr)
            browser.close()
    print(f"a click on the contents' link to #{args.target} of {args.page}, 1280 px, CPU 4x, {args.runs} runs each "
          "(min/median/max):")
    for name, rows in results.items():
        still = [row[2] for row in rows if row[2] is not None]
        print(f"  {name:14s} long tasks in 4 s: sum {spread([row[0] for row in rows])}, longest "
              f"{spread([row[1] for row in rows])}; target still after {spread(still) if still else 'never'}"
              f" ({len(still)}/{len(rows)} runs)")


if __name__ == "__main__":
    main()
