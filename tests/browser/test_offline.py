"""Reading offline in real Chromium (live engine): after one visit the site is kept by its service worker; with the
network off a reload opens the page, the sidebar leads to three more, an edited cell gets the engine's answer, an
exercise is graded and Build your GPT trains; Chromium finds the site installable. Then a rebuild with a changed
engine file is served at the same origin: the reader is offered the new version and, on Reload, gets its pages,
worker and engine wheel together.

Service workers keep nothing in an off-the-record context's storage for long and its HTTP cache cannot hold the
8.6 MB wasm, so these tests share one persistent profile, in order. The rebuild is made from a copy of the project
while the first tests run, and served by renaming it into the session site's folder (restored afterwards)."""
import json
import os
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from browser_pages import reports_device, wait_for_engine, waits_for_scripts
from conftest import CHROMIUM, CHROMIUM_ARGS, LIVE_DIST, NOT_LIVE_REASON, ROOT, SITEMAP_READ
from practice_pages import run_and_wait, type_code
from test_build_your_gpt import click, page_reference, wait_state
from test_practice import edit_widget_cell

from engine import exercises
from engine.examples import run

pytestmark = [pytest.mark.browser, pytest.mark.live]
START = "layers/layernorm/"
SIDEBAR = ("Attention", "Softmax", "Build your GPT")
KEPT_TIMEOUT_MS = 180_000  # every file of the site (~40 MB) copied into the cache on a busy machine
# Not copied into the rebuild's project: tools linked instead, and what a build or a test run leaves
NOT_COPIED = {".git", ".venv", ".venv-pyodide", "node_modules", "site", ".pytest_cache", "layerwise.egg-info"}
CHANGED_FILE = "engine/examples/__init__.py"  # a widget kind's module: a new wheel, the same trained model
BUILD_OF_WORKER = """() => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data.build);
    navigator.serviceWorker.controller.postMessage({type: "build"}, [channel.port2]);
})"""
KEPT_URLS = """async () => {
    const urls = [];
    for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
}"""


def worker_build(site_root):
    return re.match(r'self\.LAYERWISE_OFFLINE = \{"build":"([0-9a-f]+)"', (site_root / "sw.js").read_text())[1]


def lock_file(site_root):
    return re.search(r'"lockFile": "([^"]+)"', (site_root / "assets/layerwise/engine-config.js").read_text())[1]


@pytest.fixture(scope="module")
def rebuild(site, tmp_path_factory):
    """The project with one engine file changed, building in the background for the site's origin."""
    if not site.live:
        pytest.skip(NOT_LIVE_REASON)
    folder = tmp_path_factory.mktemp("rebuild")
    project = folder / "project"
    shutil.copytree(ROOT, project, ignore=lambda where, names: NOT_COPIED & set(names) if where == str(ROOT) else ())
    for name in ("node_modules", ".venv-pyodide"):
        (project / name).symlink_to(ROOT / name)
    with (project / CHANGED_FILE).open("a") as changed:
        changed.write("\n# a change for test_offline.py's rebuild\n")
    env = {**os.environ, "SITE_URL": site.url, "PYODIDE_DIST": LIVE_DIST, "NO_MKDOCS_2_WARNING": "1"}
    out, log = folder / "site", folder / "build.log"
    with log.open("w") as output:
        building = subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                                    cwd=project, env=env, stdout=output, stderr=subprocess.STDOUT)
    yield building, out, log
    building.kill()
    building.wait()


@pytest.fixture(scope="module")
def reader(site, browser, rebuild, tmp_path_factory):
    """One page of a persistent profile, as a returning reader's browser has it."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path_factory.mktemp("profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    context.add_init_script(SITEMAP_READ)
    context.add_init_script(reports_device(4))
    page = context.pages[0] if context.pages else context.new_page()
    waits_for_scripts(page)  # goto and reload return once the page's scripts ran (they start after the first paint)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield context, page
    context.close()
    assert errors == [], "uncaught errors in the page"


def footer(page):
    return page.locator(".lw-offline").text_content()


def test_after_one_visit_the_site_is_kept_and_installable(live, reader):
    context, page = reader
    page.goto(live.url + START)
    assert wait_for_engine(page)["state"] == "ready"
    page.wait_for_function("Layerwise.offline.state === 'kept'", timeout=KEPT_TIMEOUT_MS)
    assert re.fullmatch(r"Available offline · (\d+) MB · Remove", footer(page))
    assert int(re.search(r"(\d+) MB", footer(page))[1]) >= 17  # at least the runtime (Pyodide, NumPy, the engine)

    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"] == live.url + "manifest.webmanifest"
    assert json.loads(manifest["data"])["name"] == "Layerwise"
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_with_the_network_off_pages_widgets_exercises_and_training_work(live, reader):
    context, page = reader
    context.set_offline(True)
    page.reload()
    assert page.evaluate(BUILD_OF_WORKER) == worker_build(live.root)
    assert wait_for_engine(page)["state"] == "ready"

    widget = page.locator('.lw-widget[data-kind="layernorm"]').first
    widget.scroll_into_view_if_needed()
    edit_widget_cell(page, widget, "x", 0, 0, "2.5")
    name, values, result = page.evaluate("""el => { const w = Layerwise.widgets().find(w => w.el === el);
        return [w.spec.name, w.values, w.lastResult]; }""", widget.element_handle())
    assert values["x"][0][0] == 2.5
    for got, want in zip(result["blocks"], run(name, values)["blocks"]):  # the CPython engine on the same inputs
        assert got["name"] == want["name"]
        assert np.allclose(np.array(got["values"], dtype=float), np.array(want["values"], dtype=float),
                           rtol=1e-9, atol=1e-12)

    exercise = page.locator('.lw-exercise[data-exercise="layernorm-forward"]')
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-content").wait_for()
    type_code(page, exercise, exercises.get("layernorm-forward").SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."

    page.evaluate("window.__samePage = true")  # gone after a full load: the sidebar's links load in place
    for title in SIDEBAR:
        page.locator(".md-sidebar--primary .md-nav__link", has_text=title).first.click()
        page.wait_for_function("title => document.querySelector('h1').textContent.startsWith(title)", arg=title)
        assert page.evaluate("window.__samePage") is True

    page.wait_for_function("window.Layerwise && window.Layerwise.capstone")
    page.select_option(".lw-capstone__steps", "100")
    click(page, "train")
    page.wait_for_function("Layerwise.capstone.step >= 10", timeout=120_000)
    click(page, "stop")
    assert wait_state(page, ["stopped"]) == "stopped"
    losses = page.evaluate("Layerwise.capstone.losses")
    assert len(losses) >= 10
    expected = page_reference(page, 100)  # computed by the CPython engine at build time
    assert max(abs(a - b) for a, b in zip(losses, expected)) < 1e-6
    context.set_offline(False)


@contextmanager
def served_instead(root, other):
    """Serve ``other`` at ``root``'s address (the session server reads files by path), then put ``root`` back."""
    kept = root.with_name(root.name + "-first-build")
    root.rename(kept)
    other.rename(root)
    try:
        yield
    finally:
        root.rename(other)
        kept.rename(root)


def test_a_new_build_is_offered_and_taken_whole(live, reader, rebuild):
    context, page = reader
    building, new_site, log = rebuild
    assert building.wait(timeout=900) == 0, log.read_text()[-4000:]
    old_lock, new_lock = lock_file(live.root), lock_file(new_site)
    assert old_lock != new_lock  # the engine changed, so its wheel's folder did
    new_build = worker_build(new_site)
    with served_instead(live.root, new_site):
        page.goto(live.url + START)  # the old build's page, from the cache; its worker looks for an update
        page.wait_for_function("Layerwise.offline.state === 'update'", timeout=KEPT_TIMEOUT_MS)
        assert footer(page) == "New version ready · Reload"
        assert page.evaluate("Layerwise.engineConfig.lockFile") == old_lock  # nothing mixed before the reader says
        with page.expect_navigation():
            page.locator(".lw-offline button", has_text="Reload").click()
        page.wait_for_function("Layerwise.engineConfig && Layerwise.engine")
        assert page.evaluate("Layerwise.engineConfig.lockFile") == new_lock
        assert page.evaluate(BUILD_OF_WORKER) == new_build
        assert wait_for_engine(page)["state"] == "ready"
        page.wait_for_function("Layerwise.offline.state === 'kept'", timeout=KEPT_TIMEOUT_MS)
        kept = page.evaluate(KEPT_URLS)
        old_folder, new_folder = (f"assets/layerwise/{lock.rsplit('/', 1)[0]}/" for lock in (old_lock, new_lock))
        assert any(new_folder in url and ".whl" in url for url in kept)
        assert not any(old_folder in url for url in kept), "the old build's wheel is still kept"

        context.set_offline(True)  # the new build whole from the cache: its page, its worker, its wheel
        page.reload()
        assert page.evaluate("Layerwise.engineConfig.lockFile") == new_lock
        assert wait_for_engine(page)["state"] == "ready"
        context.set_offline(False)

        page.wait_for_function("Layerwise.offline.state === 'kept'", timeout=KEPT_TIMEOUT_MS)
        page.locator(".lw-offline button", has_text="Remove").click()
        page.wait_for_function("Layerwise.offline.state === 'offer'")
        assert footer(page) == "Read this site offline · Keep a copy"
        assert page.evaluate(KEPT_URLS) == []
        assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0


def test_a_device_short_of_memory_is_only_offered_the_copy(site, browser):
    if not site.live:
        pytest.skip(NOT_LIVE_REASON)
    context = browser.new_context()  # service workers allowed, as in a reader's browser
    context.add_init_script(reports_device(2))  # under 4 GB: what the engine's snapshot is not sent to either
    page = context.new_page()
    waits_for_scripts(page)
    page.goto(site.url + START)
    assert wait_for_engine(page)["state"] == "ready"
    page.wait_for_function("Layerwise.offline.state === 'offer'", timeout=60_000)
    assert footer(page) == "Read this site offline · Keep a copy"
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    context.close()
