"""The workers restore the Python interpreter from the site's memory snapshot (scripts/build/.../snapshot.py)
instead of starting it; a snapshot they cannot use (another build of the runtime, not served) makes them start
CPython as before, and a reader whose browser says data is dear (Save-Data, a 3G connection) or memory short (2 GB)
is never sent it."""
import gzip
import struct
from pathlib import Path

import pytest
from browser_pages import reports_device, wait_for_engine

pytestmark = [pytest.mark.browser, pytest.mark.live]
SNAPSHOT = "**/assets/layerwise/pyodide-*.snapshot.gz"
ROOT = Path(__file__).resolve().parents[2]
RESTORING = "restoring the Python runtime from its snapshot"
STAGES = "Layerwise.engine.timeline.map(([stage]) => stage)"
# An edit answered by the worker: the first input cell of LayerNorm's first widget set to 3.
EDIT = """async () => {
    const widget = Layerwise.widgets()[0];
    const cell = widget.el.querySelector('.lw-input .lw-cell');
    const rendered = new Promise(resolve => widget.el.addEventListener('layerwise:rendered', resolve, {once: true}));
    cell.value = "3";
    cell.dispatchEvent(new Event('input', {bubbles: true}));
    await rendered;
    return widget.el.dataset.state;
}"""


def open_layernorm(watched, live):
    path = live.page_with_kind("layernorm")
    watched.page.goto(live.url + path)
    assert wait_for_engine(watched.page) == {"state": "ready", "reason": ""}
    return watched.page.evaluate(STAGES)


def snapshot_requests(watched):
    return [url for url in watched.requests if url.endswith(".snapshot.gz")]


def test_the_widgets_engine_is_restored_from_the_snapshot_and_answers_an_edit(live, watched):
    stages = open_layernorm(watched, live)
    assert RESTORING in stages
    assert not [stage for stage in stages if stage.startswith("starting the Python runtime")]
    assert stages.index(RESTORING) < stages.index("loading NumPy and the engine")
    assert len(set(snapshot_requests(watched))) == 1
    assert watched.page.evaluate(EDIT) == "live"


def another_builds_snapshot(site_root):
    """The site's snapshot with its build id changed, as a snapshot made by another build of Pyodide would be."""
    def fulfil(route):
        name = route.request.url.rsplit("/", 1)[1]
        memory = bytearray(gzip.decompress((site_root / "assets" / "layerwise" / name).read_bytes()))
        first_word = struct.unpack_from("<I", memory, 16)[0]
        struct.pack_into("<I", memory, 16, first_word ^ 1)
        route.fulfill(status=200, body=gzip.compress(bytes(memory), compresslevel=1),
                      headers={"Content-Type": "application/gzip"})
    return fulfil


@pytest.mark.parametrize("served, why", [
    ("another build's", "Snapshot build id mismatch"),
    ("not found", "answered 404"),
])
def test_a_snapshot_the_worker_cannot_use_makes_it_start_python_and_the_widgets_still_answer(live, watched, served,
                                                                                             why):
    if served == "not found":
        watched.context.route(SNAPSHOT, lambda route: route.fulfill(status=404, body="gone"))
    else:
        watched.context.route(SNAPSHOT, another_builds_snapshot(live.root))
    stages = open_layernorm(watched, live)
    fallback = [stage for stage in stages if stage.startswith("starting the Python runtime (its snapshot: ")]
    assert len(fallback) == 1 and why in fallback[0]
    assert watched.page.evaluate(EDIT) == "live"


DEAR = "Object.defineProperty(Navigator.prototype, 'connection', {get: () => (%s), configurable: true});"


@pytest.mark.parametrize("init_script", [
    DEAR % "{saveData: true, effectiveType: '4g'}",
    DEAR % "{saveData: false, effectiveType: '3g'}",
    reports_device(2),
])
def test_a_reader_whose_data_is_dear_or_memory_short_is_not_sent_the_snapshot(live, watched, init_script):
    watched.context.add_init_script(init_script)
    stages = open_layernorm(watched, live)
    assert snapshot_requests(watched) == []
    assert RESTORING not in stages
    assert watched.page.evaluate(EDIT) == "live"


def test_the_served_snapshot_holds_no_path_of_the_build(site):
    # The review's F15: the interpreter kept the snapshot script's absolute path (its `_`), the build's checkout
    snapshots = sorted(site.root.glob("assets/layerwise/pyodide-*.snapshot.gz"))
    if not snapshots:
        pytest.skip("this site build made no snapshot")
    memory = gzip.decompress(snapshots[0].read_bytes())
    assert str(ROOT).encode() not in memory and b".building-" not in memory
