"""Browser-test fixtures: the real site built once per session, served on 127.0.0.1, and one headless Chromium.

Without ``PYODIDE_DIST`` the site self-hosts the npm Pyodide core (node_modules/pyodide): the core really loads in
Chromium, NumPy's load then fails, and the live-engine tests are skipped with the reason in the pytest summary.
"""
import os
import shutil
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from layerwise_build.livewidgets.serve import start_server
from layerwise_build.livewidgets.sitebuild import build_site
from browser_pages import reports_device, waits_for_scripts

ROOT = Path(__file__).resolve().parents[2]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
LIVE_DIST = os.environ.get("PYODIDE_DIST")
# LAYERWISE_PAGES=layernorm,attention: the tests that walk every page with widgets walk only those (a developer's
# quick run on one page; unset, as in CI, every page is walked)
ONLY_PAGES = [name for name in os.environ.get("LAYERWISE_PAGES", "").split(",") if name]
NOT_LIVE_REASON = ("PYODIDE_DIST is not set: NumPy-in-Pyodide tests did not run (the site under test self-hosts only "
                   "the npm Pyodide core, which has no NumPy); see ../shared/README.md to assemble one")


class Site:
    def __init__(self, root, url, live):
        self.root, self.url, self.live = root, url, live

    def pages_with_widgets(self):
        """Site-relative URLs of every page holding a widget, in a stable order."""
        found = []
        for html in sorted(self.root.rglob("index.html")):
            if 'class="lw-widget"' in html.read_text(encoding="utf-8"):
                found.append(html.parent.relative_to(self.root).as_posix() + "/")
        return [path for path in found if not ONLY_PAGES or any(f"/{name}/" in f"/{path}" for name in ONLY_PAGES)]

    def page_with_kind(self, kind):
        for path in self.pages_with_widgets():
            if f'data-kind="{kind}"' in (self.root / path / "index.html").read_text(encoding="utf-8"):
                return path
        return None


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    dist = LIVE_DIST or ROOT / "node_modules" / "pyodide"
    if not (Path(dist) / "pyodide.js").is_file():
        pytest.fail(f"no Pyodide core at {dist}: run `npm ci` (bash scripts/dev.sh test does it)")
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    root = build_site(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("site"), url, dist)  # strict: any build warning fails the session
    server = start_server(root, port)
    yield Site(root, url, bool(LIVE_DIST))
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `bash scripts/dev.sh test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Watched:
    """A page plus everything it did that a test must check: console errors, uncaught errors, requests."""

    def __init__(self, context, page, origin):
        self.context, self.page, self.origin = context, page, origin
        waits_for_scripts(page)
        context.on("page", waits_for_scripts)  # a second tab a test opens
        self.console_errors, self.page_errors, self.requests, self.dialogs = [], [], [], []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append((m.text, m.location.get("url", ""))))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("request", lambda r: self.requests.append(r.url))
        context.on("request", lambda r: self.requests.append(r.url))

    def outside_requests(self):
        return sorted({u for u in self.requests if urlsplit(u).scheme in ("http", "https", "ws", "wss")
                       and urlsplit(u).netloc != self.origin})


# mkdocs-material follows a link in place (instant navigation) only once it has read the site's sitemap.xml, which
# its bundle fetches as it starts: a click before that is an ordinary page load. It parses the file with DOMParser
# and hands the result on in the same task, so a mark set there is seen by the next check a test makes
# (browser_pages.wait_for_instant_navigation).
SITEMAP_READ = """{
    const parse = DOMParser.prototype.parseFromString;
    DOMParser.prototype.parseFromString = function (text, type) {
        const parsed = parse.call(this, text, type);
        if (type === "text/xml" && parsed.querySelector("urlset")) window.__lwSitemapRead = true;
        return parsed;
    };
}"""


def _watch(browser, site, **context_options):
    """A fresh context (empty storage) whose page must end with no request leaving localhost. The site's service
    worker is blocked (test_offline.py tests it): a test sees the network as the page's first visit does."""
    context = browser.new_context(service_workers="block", **context_options)
    context.add_init_script(SITEMAP_READ)
    context.add_init_script(reports_device(4))
    page = context.new_page()
    watched = Watched(context, page, urlsplit(site.url).netloc)
    yield watched
    context.close()
    assert watched.outside_requests() == [], "requests left localhost"
    assert watched.page_errors == [], "uncaught errors in the page"
    assert watched.dialogs == [], "a dialog opened: an injected payload ran"


@pytest.fixture
def watched(browser, site):
    yield from _watch(browser, site)


PHONE = {"has_touch": True, "is_mobile": True, "viewport": {"width": 390, "height": 844}}
# CodeMirror reads input differently on Android (from DOM changes, its keyboards sending key code 229): it looks for
# "Android" in the user agent.
ANDROID_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
              "Mobile Safari/537.36")


@pytest.fixture
def watched_phone(browser, site):
    """The same, as a phone: a touch screen (Playwright's tap) and a 390 px wide viewport."""
    yield from _watch(browser, site, **PHONE)


@pytest.fixture
def watched_android(browser, site):
    """The phone, saying it is an Android one."""
    yield from _watch(browser, site, **PHONE, user_agent=ANDROID_UA)


@pytest.fixture
def live(site):
    if not site.live:
        pytest.skip(NOT_LIVE_REASON)
    return site
