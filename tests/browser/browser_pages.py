"""Page helpers shared by the browser tests (a plain module: test files cannot import a conftest reliably when
several test folders each have one)."""
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def reports_device(memory_gb, cores=2):
    """An init script making navigator.deviceMemory (Chromium's steps, up to 8 GB) say ``memory_gb`` and
    navigator.hardwareConcurrency say ``cores``: with 4 GB or more and 4 cores or more the practice worker starts as
    soon as the widgets' engine is ready (widgets/practice/page.js), under 4 GB the workers get no memory snapshot
    (widgets/engine-client.js). Test pages report 4 GB and 2 cores unless a test says otherwise, whatever machine
    runs them: the snapshot is used, and the practice worker starts only when a test brings an exercise near the
    screen."""
    return "".join(f"Object.defineProperty(Navigator.prototype, {name!r}, {{get: () => {value}, configurable: true}});"
                   for name, value in (("deviceMemory", memory_gb), ("hardwareConcurrency", cores)))


# The page's scripts start after its first frame (layerwise_build/pagescripts.py), which can come after 'load', where
# Playwright's goto, reload and go_back return. Done when none is left to start and the last has run; a page built
# without the plugin has none.
SCRIPTS_RAN = """!document.querySelector('script[type="layerwise/after-first-frame"]')
    && (!document.querySelector('script[data-after-first-frame]') || window.Layerwise?.scriptsRan === true)"""


def waits_for_scripts(page):
    """Make ``page``'s goto, reload, go_back and go_forward return once the page's scripts have run, as they did when
    the scripts ran before 'load' (a test then checks what they made, as a reader who arrives sees it)."""
    def then_scripts(navigate):
        def navigated(*args, **kwargs):
            response = navigate(*args, **kwargs)
            page.wait_for_function(SCRIPTS_RAN)
            return response
        return navigated
    for name in ("goto", "reload", "go_back", "go_forward"):
        setattr(page, name, then_scripts(getattr(page, name)))


def two_frames(page):
    """Wait until the page has rendered two more frames: what a script does "before the next paint" (a
    requestAnimationFrame callback, a ResizeObserver's, a content-visibility state change) has then been done, however
    slow the machine is (a fixed wait is not: a busy 2-core machine can take longer than it for one frame)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))")


def open_without_engine(watched, site, kind):
    """Open the first page showing a ``kind`` widget with the worker blocked (cell validation needs no engine), or
    skip; returns the page's path."""
    path = site.page_with_kind(kind)
    if not path:
        pytest.skip(f"no page shows the {kind} widget")
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    watched.page.goto(site.url + path)
    watched.page.wait_for_function("document.querySelector('.lw-reset:enabled')")
    return path


def open_static(watched, site, path, viewport):
    """Open ``path`` at ``viewport`` (width, height) with the engine kept from loading, once the page has loaded
    and its scripts have done what they do at set-up, every exercise's editor included: editors are otherwise made
    in idle time when their exercise nears the screen, which would change the page between two photographs."""
    watched.page.set_viewport_size(viewport)
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    watched.page.goto(site.url + path)
    watched.page.wait_for_load_state("networkidle")
    watched.page.evaluate("""async () => {
        if (!document.querySelector('.lw-exercise')) return;
        while (!window.Layerwise?.practice) await new Promise(r => setTimeout(r, 20));
        await Promise.all(Layerwise.practice.exercises().map(exercise => exercise.mount()));
    }""")


def wait_for_engine(page, timeout_ms=90_000):
    """Wait until the engine is ready or failed; return its state and reason."""
    page.wait_for_function("['ready', 'failed'].includes(window.Layerwise.engine.state)", timeout=timeout_ms)
    return page.evaluate("({state: Layerwise.engine.state, reason: Layerwise.engine.reason})")


def start_json(page, widget_index):
    return json.loads(page.locator(".lw-widget").nth(widget_index).get_attribute("data-start"))


def wait_for_instant_navigation(page):
    """Wait until mkdocs-material follows links in place: it has read sitemap.xml (conftest.SITEMAP_READ). A reader's
    click comes later than a test's; the theme's scripts are deferred, so 'load' can come before the sitemap."""
    page.wait_for_function("window.__lwSitemapRead === true")


def instant_go(page, site, path):
    """Follow a link the way a reader does, so mkdocs-material's instant navigation swaps the page in place."""
    target = site.url + path
    wait_for_instant_navigation(page)
    page.evaluate("""target => {
        window.__widgetsBefore = Layerwise.widgets();
        let link = [...document.querySelectorAll('a[href]')].find(a => a.href === target);
        if (!link) { link = document.createElement('a'); link.href = target; document.body.append(link); }
        link.click();
    }""", target)
    # pageWidgets is a new array after each document$ emission: wait for the new page's set, all attached.
    page.wait_for_function("""target => location.href.split('#')[0] === target
        && Layerwise.widgets() !== window.__widgetsBefore && Layerwise.widgets().every(w => w.el.isConnected)
        && Layerwise.widgets().length === document.querySelectorAll('.lw-widget').length""", arg=target)


def scroll_to_and_click(page, link):
    """Scroll ``link`` into view and click it, as a reader does. mkdocs-material records a page's scroll offset in
    history.state 100 ms after the last scroll; a click sooner than that (Playwright's own scroll-then-click) lets
    the record land on the next page's entry, and after instant navigation the theme restores that offset instead
    of going to the link's fragment (a flaky failure under load, in test_practice and test_wide_boxes)."""
    wait_for_instant_navigation(page)
    link.scroll_into_view_if_needed()
    page.wait_for_function("Math.abs((history.state ? history.state.y : 0) - scrollY) < 1")
    link.click()
