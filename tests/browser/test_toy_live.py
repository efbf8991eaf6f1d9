"""The toy (tests/site/fixtures/project, package ``toy``, distribution ``toyproject``) live in Chromium: its worker
loads the toy's wheel by the name engine-config.js gives and imports its kinds' module ``toy.kinds`` in Pyodide, so
an edit is recomputed by the toy's code (needs PYODIDE_DIST; skipped with the reason otherwise)."""
import os
import shutil
import socket
from pathlib import Path

import pytest
from browser_pages import wait_for_engine, waits_for_scripts

from layerwise_build.livewidgets.serve import start_server
from layerwise_build.livewidgets.sitebuild import build_site

pytestmark = [pytest.mark.browser, pytest.mark.live]
ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "site" / "fixtures" / "project"
PROJECT_TOOLS = ("node_modules", "package.json", ".venv-pyodide", "widgets")  # as test_plugin_widgets.py links them
EDIT_X0 = """async () => {
    const w = Layerwise.widgets()[0];
    const cell = w.el.querySelector('.lw-cell[data-input="x"][data-row="0"][data-col="0"]');
    const done = new Promise(resolve => w.el.addEventListener('layerwise:rendered', resolve, {once: true}));
    cell.value = "10";
    cell.dispatchEvent(new Event('input', {bubbles: true}));
    await done;
    return {state: w.el.dataset.state, cells: [...w.el.querySelectorAll('.lw-output td')].map(td => td.textContent)};
}"""


@pytest.fixture(scope="module")
def toy_live(tmp_path_factory):
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        pytest.skip("PYODIDE_DIST is not set: the toy's kinds were not run in Pyodide (the npm Pyodide core has no "
                    "NumPy); see ../shared/README.md to assemble one")
    project = tmp_path_factory.mktemp("toy") / "project"
    shutil.copytree(FIXTURE, project)
    for name in PROJECT_TOOLS:
        (project / name).symlink_to(ROOT / name)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    root = build_site(project / "mkdocs-widgets.yml", project.parent / "site", url, dist)
    server = start_server(root, port)
    yield url
    server.shutdown()
    server.server_close()


def test_the_toys_worker_recomputes_an_edit_with_the_toys_kind(toy_live, browser):
    context = browser.new_context()
    page = context.new_page()
    waits_for_scripts(page)
    try:
        page.goto(toy_live)
        assert wait_for_engine(page) == {"state": "ready", "reason": ""}
        shown = page.evaluate(EDIT_X0)
        # y = s * x with s = 3: x0 edited from 1 to 10 gives 30; the other entries stay -6 and 1.5
        assert shown == {"state": "live", "cells": ["30.00", "-6.00", "1.50"]}
    finally:
        context.close()
