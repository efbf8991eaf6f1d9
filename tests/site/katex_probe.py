"""Run by test_math_in_browser.py in its own process (a suite may already hold a Playwright session in-process):
open the built site in Chromium as if served from site_url, and report what rendered, as JSON on stdout.

    python katex_probe.py <built site folder>
"""
import json
import mimetypes
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
# Material's instant navigation only takes over links on the origin of site_url, so the built files are answered
# from that origin through request routing: no server, no port.
SITE_URL = "http://127.0.0.1:8000/"


def serve_from(site: Path):
    def answer(route):
        path = site / unquote(urlsplit(route.request.url).path).lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            route.fulfill(status=404, body="not found")
            return
        route.fulfill(status=200, body=path.read_bytes(),
                      content_type=mimetypes.guess_type(path.name)[0] or "application/octet-stream")
    return answer


def probe(site: Path) -> dict:
    report = {"foreign_requests": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.route(f"{SITE_URL}**", serve_from(site))
        page.on("request", lambda r: None if r.url.startswith((SITE_URL, "data:", "blob:"))
                else report["foreign_requests"].append(r.url))
        page.goto(SITE_URL + "layers/linear/")
        page.wait_for_selector("#eq-linear-forward .katex-display", timeout=30000)
        report["linear_equations_rendered"] = page.locator(".lw-equation .katex").count()
        report["linear_katex_errors"] = page.locator(".katex-error").count()
        report["katex_fonts_loaded"] = page.evaluate("""document.fonts.ready.then(() => [...document.fonts]
            .filter(f => f.family.replace(/"/g, '').startsWith('KaTeX') && f.status === 'loaded')
            .map(f => f.family.replace(/"/g, '')))""")
        page.evaluate("window.__same_document = true")  # survives only if the next page is swapped in, not loaded
        page.locator("nav a[href$='layernorm/']").first.click()
        page.wait_for_selector("#eq-layernorm-dx .katex-display", timeout=30000)
        report["instant"] = page.evaluate("window.__same_document === true")
        report["layernorm_equations_rendered"] = page.locator(".lw-equation .katex").count()
        report["layernorm_katex_errors"] = page.locator(".katex-error").count()
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(probe(Path(sys.argv[1]))))
