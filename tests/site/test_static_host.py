"""The audits (scripts/bench/bench_lighthouse.py) and their static host (scripts/bench/browserbench/static_host.py),
which serves what a real host does: a page's folder URL is its index.html, compressed like every other text file
(served raw, a layer page's 460 KB took Lighthouse's simulated phone network ~2 s to download, 43 KB gzipped)."""
import gzip
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "bench"))
from browserbench.static_host import start_static_host  # noqa: E402

PAGE = "<!doctype html><title>A page</title><p>" + "words " * 500 + "</p>"


def fetch(port, path, accept="gzip"):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Accept-Encoding": accept})
    with urllib.request.urlopen(request) as response:
        return response.headers, response.read()


def test_a_page_folder_is_its_index_html_compressed(tmp_path):
    (tmp_path / "layers").mkdir()
    (tmp_path / "layers" / "index.html").write_text(PAGE)
    server = start_static_host(tmp_path)
    try:
        headers, body = fetch(server.server_port, "/layers/")
        assert headers["Content-Encoding"] == "gzip"
        assert headers["Content-Type"].startswith("text/html")
        assert gzip.decompress(body).decode() == PAGE
        assert len(body) < len(PAGE) / 10  # 500 repeated words compress to a few dozen bytes
        headers, body = fetch(server.server_port, "/layers/", accept="identity")
        assert headers["Content-Encoding"] is None and body.decode() == PAGE
    finally:
        server.shutdown()
        server.server_close()


def test_the_audit_reports_the_median_run():
    import bench_lighthouse

    def report(score):
        return {"categories": {"performance": {"score": score}}}

    runs = [report(0.61), report(0.93), report(0.72)]
    assert bench_lighthouse.median_run(runs) is runs[2]
    assert bench_lighthouse.median_run([report(0.9), report(0.5)])["categories"]["performance"]["score"] == 0.5
    assert bench_lighthouse.median_run([report(0.8)])["categories"]["performance"]["score"] == 0.8


def test_the_audit_counts_the_runs_whose_first_paint_was_held():
    import bench_lighthouse

    def report(first_paint_ms):
        return {"audits": {"metrics": {"details": {"items": [{"observedFirstContentfulPaint": first_paint_ms}]}}}}

    # first paints as traced on LayerNorm: one drawn at once, two held to the next second
    assert bench_lighthouse.held_first_paints([report(241), report(1259), report(2250)]) == 2
    assert bench_lighthouse.held_first_paints([report(241), report(1000)]) == 0  # 1 s itself is not held
