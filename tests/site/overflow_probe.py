"""Run by test_mobile_layout.py in its own process (like katex_probe.py): open every page of the built site in one
Chromium page at a given viewport width and report, as JSON on stdout, how wide each document is and which element
sticks out furthest.

    python overflow_probe.py <built site folder> [width]
"""
import json
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

from katex_probe import ARGS, CHROMIUM
from playwright.sync_api import sync_playwright


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

# When the document is wider than the viewport, find what widens it by elimination: show the children of the
# current element one at a time (siblings hidden), descend into the one that alone makes the document widest with
# its siblings left hidden, stop when no child does. That names the culprit whatever the CSS cause (a wide table,
# an unbreakable name, an absolutely positioned child escaping its scroll box), which a walk over bounding boxes
# cannot, and another offender elsewhere on the page cannot mask it.
MEASURE = """(width) => {
  const docWidth = () => document.documentElement.scrollWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    [...el.classList].slice(0, 3).map((c) => "." + c).join("");
  const scrollWidth = docWidth();
  if (scrollWidth <= width + 1) return {scrollWidth, culprit: null};
  const saved = new Map();  // element -> its style attribute before the search
  const hide = (el) => {
    if (!saved.has(el)) saved.set(el, el.getAttribute("style"));
    el.style.setProperty("display", "none", "important");
  };
  const show = (el) => {
    const style = saved.get(el);
    if (style === null || style === undefined) el.removeAttribute("style"); else el.setAttribute("style", style);
  };
  let node = document.body, path = [];
  for (;;) {
    const children = [...node.children];
    children.forEach(hide);
    let widest = null, widestWidth = width + 1;
    for (const child of children) {
      show(child);
      const alone = docWidth();
      if (alone > widestWidth) { widest = child; widestWidth = alone; }
      hide(child);
    }
    if (!widest) { children.forEach(show); break; }
    show(widest);
    node = widest;
    path.push(name(widest));
  }
  const right = Math.round(node.getBoundingClientRect().right);
  saved.forEach((_, el) => show(el));
  return {scrollWidth, culprit: {element: path.slice(-4).join(" > "), right,
                                 text: (node.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 80)}};
}"""


def site_pages(site: Path) -> list[str]:
    """Site-relative URL of every page (the 404 page too), in a stable order."""
    return sorted(p.relative_to(site).parent.as_posix().removeprefix(".") + "/" if p.name == "index.html"
                  else p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def probe(site: Path, width: int) -> dict:
    report = {}
    # a real server rather than request routing (katex_probe's way): the browser caches the shared CSS, scripts
    # and fonts, so a hundred pages load in seconds
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(site)))
    Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": width, "height": 800})
        # the live engine (Pyodide) plays no part in layout: keep the probe from loading it on every page
        page.route("**/pyodide/**", lambda route: route.abort())
        for url in site_pages(site):
            page.goto(base + url.lstrip("/"), wait_until="load")
            page.wait_for_function("document.querySelectorAll('.arithmatex:not(:has(.katex))').length === 0",
                                   timeout=10000)
            report[url] = page.evaluate(MEASURE, width)
        browser.close()
    server.shutdown()
    return report


if __name__ == "__main__":
    print(json.dumps(probe(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 375), indent=1))
