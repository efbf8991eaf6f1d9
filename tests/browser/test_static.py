"""What every reader gets without the live engine: complete pre-rendered pages, no console errors, one clear
notice when Pyodide cannot load, and no request leaving the site's origin."""
import json
import re
from html.parser import HTMLParser

import pytest
from browser_pages import ROOT, instant_go, wait_for_engine
from layerwise_build.livewidgets import pyodide_dist

from engine.examples import run
from engine.examples.fmt import format_input

pytestmark = pytest.mark.browser


def flatten(value):
    """Row-major list of the entries of a scalar, vector or matrix given as nested lists."""
    return [x for item in value for x in flatten(item)] if isinstance(value, list) else [value]


def test_pages_are_complete_without_javascript_and_match_the_cpython_engine(browser, site):
    pages = site.pages_with_widgets()
    assert pages, "no page has a widget"
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    checked = 0
    for path in pages:
        page.goto(site.url + path)
        for widget in page.locator(".lw-widget").all():
            kind, start = widget.get_attribute("data-kind"), json.loads(widget.get_attribute("data-start"))
            expected = run(kind, start)
            where = f"{path} {widget.get_attribute('data-widget-id')}"
            for block in expected["blocks"]:
                figure = widget.locator(f'.lw-output[data-name="{block["name"]}"]')
                assert figure.locator("td").all_text_contents() == flatten(block["cells"]), where
            if expected["arithmetic"]:
                assert widget.locator(".lw-arith").text_content() == expected["arithmetic"], where
            first_input = widget.locator(".lw-input").first
            name = first_input.get_attribute("data-name")
            shown = first_input.locator("input").evaluate_all("boxes => boxes.map(b => b.value)")
            assert shown == [x if isinstance(x, str) else format_input(x) for x in flatten(start[name])], where
            assert widget.locator(".lw-state").text_content() == "static"
            assert widget.locator(".lw-keys").is_hidden()  # the cells' keys need the script
            checked += 1
    context.close()
    assert checked >= len(pages)


def _settle(watched, site, path):
    watched.page.goto(site.url + path)
    watched.page.locator(".lw-widget").first.scroll_into_view_if_needed()
    return wait_for_engine(watched.page)


def test_pages_load_with_no_console_errors_and_show_the_engine_state(watched, site):
    """Hard-load home and the first widget page, then move through the others by instant navigation."""
    page = watched.page
    page.goto(site.url)
    paths = site.pages_with_widgets()
    state = _settle(watched, site, paths[0])
    assert state["state"] == ("ready" if site.live else "failed"), state
    for path in paths:
        if path != paths[0]:
            instant_go(page, site, path)
        widgets = page.locator(".lw-widget")
        if site.live:
            page.wait_for_function("[...document.querySelectorAll('.lw-state')].every(s => s.textContent === 'live')")
        else:  # the npm core has no NumPy: one notice per page, every value still readable
            assert "NumPy" in state["reason"] and "could not be loaded" in state["reason"]
            assert page.locator(".lw-notice").count() == 1, path
            assert page.locator(".lw-notice").text_content().startswith("The live engine could not load: NumPy")
            assert set(page.locator(".lw-state").all_text_contents()) == {"static"}, path
            assert widgets.locator(".lw-output td").count() > 0
    assert page.evaluate("Layerwise.engine.starts") == 1
    errors = watched.console_errors
    if not site.live:  # the npm core has no NumPy wheel: that one 404 is the expected, reported failure
        errors = [e for e in errors if not (e[0].startswith("Failed to load resource") and e[1].endswith(".whl"))]
    assert errors == []


def test_unreachable_pyodide_gives_one_notice(watched, site):
    watched.context.route("**/pyodide/**", lambda route: route.abort())
    path = site.pages_with_widgets()[0]
    state = _settle(watched, site, path)
    assert state["state"] == "failed"
    assert "the Python runtime could not be fetched" in state["reason"]
    assert watched.page.locator(".lw-notice").count() == 1
    assert "could not load" in watched.page.locator(".lw-notice").text_content()


def test_wasm_with_wrong_mime_type_times_out_with_a_clear_message(watched, site):
    def short_timeout(route):
        script = route.fetch().text()
        assert '"readyTimeoutMs": 60000' in script
        route.fulfill(body=script.replace('"readyTimeoutMs": 60000', '"readyTimeoutMs": 4000'),
                      content_type="text/javascript")

    def wrong_type(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-type": "text/plain"})

    watched.context.route("**/engine-config.js", short_timeout)
    watched.context.route("**/*.wasm", wrong_type)
    state = _settle(watched, site, site.pages_with_widgets()[0])
    assert state["state"] == "failed"
    assert "not ready after 4 s" in state["reason"] and "MIME type" in state["reason"]
    assert watched.page.locator(".lw-notice").count() == 1


class _Loads(HTMLParser):
    """Every URL an HTML page makes the browser fetch by itself: scripts, stylesheets, icons, images, frames."""
    FETCHING = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src", "video": "src",
                "embed": "src", "object": "data", "link": "href"}
    NOT_FETCHED_LINKS = {"canonical", "alternate", "author", "license", "next", "prev", "search"}

    def __init__(self):
        super().__init__()
        self.urls, self._in_style = [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._in_style = tag == "style"
        if tag == "link" and set((attrs.get("rel") or "").split()) <= self.NOT_FETCHED_LINKS:
            return
        if attrs.get(self.FETCHING.get(tag, "")):
            self.urls.append(attrs[self.FETCHING[tag]])
        self.urls += css_urls(attrs.get("style") or "")

    def handle_data(self, data):
        if self._in_style:
            self.urls += css_urls(data)


def css_urls(text):
    """The URLs a stylesheet fetches: url(...) and @import "..."."""
    found = re.findall(r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)", text)
    return [url for pair in found for url in pair if url]


def _other_origin(url, site_url):
    return bool(re.match(r"^(https?:)?//", url)) and not url.startswith(site_url)


def test_the_built_site_fetches_nothing_from_another_origin(site):
    """Pages and stylesheets load only from the site; the widgets' scripts and the self-hosted Pyodide name no other
    origin except the pinned CDN (pyodide.js's default when no folder is given). The theme's own bundle keeps its
    conditional polyfill URLs; the request tests above check that nothing is fetched at run time."""
    cdn = pyodide_dist.cdn_url(pyodide_dist.pinned_version(ROOT))
    cdn_template = cdn.split(pyodide_dist.pinned_version(ROOT))[0]  # pyodide.js builds it as v${version}/full/
    engine_lock = next((site.root / "assets" / "layerwise").glob("engine-*/pyodide-lock.json"))
    needed = json.loads(engine_lock.read_text())["packages"]["layerwise"]["depends"]
    assert sorted(p.name for p in (site.root / pyodide_dist.SITE_FOLDER).iterdir()) == sorted(
        pyodide_dist.runtime_files(site.root / pyodide_dist.SITE_FOLDER, needed)), "only what the worker needs is copied"
    problems = []
    for html in site.root.rglob("*.html"):
        parser = _Loads()
        parser.feed(html.read_text(encoding="utf-8"))
        problems += [f"{html.relative_to(site.root)}: {u}" for u in parser.urls if _other_origin(u, site.url)]
    for css in site.root.rglob("*.css"):
        problems += [f"{css.relative_to(site.root)}: {u}" for u in css_urls(css.read_text(encoding="utf-8"))
                     if _other_origin(u, site.url)]
    shipped = [*(site.root / "assets" / "layerwise").glob("*.js"), engine_lock,
               *(site.root / pyodide_dist.SITE_FOLDER).glob("*.js*")]
    assert shipped
    for path in shipped:
        for url in re.findall(r"https?://[^\s\"'`)]+", path.read_text(encoding="utf-8")):
            if not (url == cdn or url.startswith(cdn_template)):
                problems.append(f"{path.relative_to(site.root)}: {url}")
    assert problems == [], "\n".join(problems)
