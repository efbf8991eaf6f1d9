"""KaTeX, vendored into the built site, renders the math on first load and again after instant navigation, and the
pages request nothing from another origin. Drives Debian's Chromium over the session's strict build.

Material's instant navigation only takes over links on the origin of `site_url` (http://127.0.0.1:8000/), so the
built files are answered from that origin through Playwright's request routing, with no server or port needed.
"""
import mimetypes
import shutil
from urllib.parse import unquote, urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
SITE_URL = "http://127.0.0.1:8000/"


def _serve_from(site):
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


@pytest.mark.browser
def test_math_renders_after_load_and_after_instant_navigation(built_site):
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `bash scripts/dev.sh test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright
    foreign = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.route(f"{SITE_URL}**", _serve_from(built_site))
        page.on("request", lambda r: None if r.url.startswith((SITE_URL, "data:", "blob:")) else foreign.append(r.url))
        page.goto(SITE_URL + "layers/linear/")
        page.wait_for_selector("#eq-linear-forward .katex-display", timeout=30000)
        assert page.locator(".lw-equation .katex").count() >= 4
        assert page.locator(".katex-error").count() == 0
        # instant navigation swaps the content without a reload; katex-init.js must render the new page too
        page.evaluate("window.__same_document = true")
        page.locator("nav a[href$='layernorm/']").first.click()
        page.wait_for_selector("#eq-layernorm-dx .katex-display", timeout=30000)
        assert page.evaluate("window.__same_document === true"), "the click reloaded the page: not instant"
        assert page.locator(".lw-equation .katex").count() >= 6
        assert page.locator(".katex-error").count() == 0
        browser.close()
    assert [u for u in foreign if "pyodide" not in u] == []  # the live engine's pinned CDN is the widgets' business
