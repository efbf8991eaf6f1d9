"""The default build (no PYODIDE_DIST) loads Pyodide from the pinned CDN, yet the engine from the site: through the
site's pyodide-lock.json, Pyodide asks the CDN for NumPy by the absolute URL the lock gives and the site for the
engine wheel beside the lock. Offline, the CDN is stood in for by the npm Pyodide core (which has no NumPy wheel), so
the engine ends failed at NumPy; the requests show where each package was looked for."""
import json
import mimetypes
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from browser_pages import ROOT, wait_for_engine
from layerwise_build.livewidgets import pyodide_dist
from layerwise_build.livewidgets.serve import start_server

pytestmark = pytest.mark.browser

NPM_CORE = ROOT / "node_modules" / "pyodide"
CDN = pyodide_dist.cdn_url(pyodide_dist.pinned_version(ROOT))


@pytest.fixture(scope="module")
def cdn_site(tmp_path_factory):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    root = tmp_path_factory.mktemp("cdn-site")
    # Its own process, as a reader's `mkdocs build` is: this session's in-process builds (with PYODIDE_DIST) swap the
    # engine's modules in and out of sys.modules, and a third build in the same process once found no widget kinds.
    environ = {key: value for key, value in os.environ.items() if key != "PYODIDE_DIST"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                            "-d", str(root)], cwd=ROOT, capture_output=True, text=True, timeout=900,
                           env={**environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": url})
    assert built.returncode == 0, built.stderr[-3000:]
    server = start_server(root, port)
    yield root, url
    server.shutdown()
    server.server_close()


def test_numpy_comes_from_the_cdn_and_the_engine_from_the_site(browser, cdn_site):
    root, url = cdn_site
    assert not (root / pyodide_dist.SITE_FOLDER).exists(), "nothing of Pyodide is self-hosted in the default build"
    lock_path = next((root / "assets" / "layerwise").glob("engine-*/pyodide-lock.json"))
    lock = json.loads(lock_path.read_text())
    numpy_wheel = json.loads((NPM_CORE / "pyodide-lock.json").read_text())["packages"]["numpy"]["file_name"]
    assert lock["packages"]["numpy"]["file_name"] == CDN + numpy_wheel
    engine_wheel = lock["packages"]["layerwise"]["file_name"]

    def stand_in_cdn(route):
        file = NPM_CORE / route.request.url[len(CDN):]
        if file.is_file():
            wasm = file.suffix == ".wasm"  # anything but application/wasm makes loadPyodide hang
            route.fulfill(path=file, content_type="application/wasm" if wasm else mimetypes.guess_type(file.name)[0])
        else:
            route.fulfill(status=404, body="not on the stand-in CDN")

    context = browser.new_context(service_workers="block")  # test_offline.py tests what it keeps
    requests = []
    context.on("request", lambda request: requests.append(request.url))
    context.route(CDN + "**", stand_in_cdn)
    page = context.new_page()
    page.goto(url + next(p for p in sorted(root.rglob("index.html")) if 'class="lw-widget"' in p.read_text())
              .parent.relative_to(root).as_posix() + "/")
    page.locator(".lw-widget").first.scroll_into_view_if_needed()  # the worker starts when a widget is seen
    state = wait_for_engine(page)
    context.close()
    assert state["state"] == "failed" and state["reason"].startswith(f"NumPy from {CDN} could not be loaded"), state
    assert CDN + "pyodide.asm.wasm" in requests
    assert CDN + numpy_wheel in requests
    site_lock = url + lock_path.relative_to(root).as_posix()
    assert site_lock in requests and CDN + "pyodide-lock.json" not in requests
    assert site_lock.rsplit("/", 1)[0] + "/" + engine_wheel in requests
