"""Where a cold load's time goes: a Chrome trace of one cold load of a widget page (fresh on-disk profile, until
the engine is ready), summarised by main-thread phase, script URL and long task (needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/trace_widgets.py [--page layers/layernorm/] [--save trace.json]

The saved trace opens in Chrome's DevTools (Performance panel) or https://ui.perfetto.dev.
"""
import argparse
import os
import socket
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import loads, trace  # noqa: E402
from livewidgets.serve import start_server  # noqa: E402
from livewidgets.sitebuild import build_site  # noqa: E402


def trace_cold_load(playwright, url, save_to=None):
    with loads.fresh_profile(playwright) as context:
        events = trace.record(context, url, loads.WIDGETS_READY, loads.READY_TIMEOUT_MS)
        ready_ms = context.pages[0].evaluate(loads.WIDGETS_READY)
    if save_to:
        trace.save(events, save_to)
    return [f"engine ready at {ready_ms:.0f} ms (traced, so slower than untraced)"] + trace.summarise(
        events, url.split("#")[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", default="layers/layernorm/", help="a page with a widget (site-relative)")
    parser.add_argument("--save", help="also write the raw trace to this JSON file")
    parser.add_argument("--site", help="serve this already built site instead of building one")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist and not args.site:
        sys.exit("PYODIDE_DIST is not set: the trace needs a self-hosted Pyodide with NumPy (../shared/README.md)")

    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        url = f"http://127.0.0.1:{port}/"
        root = Path(args.site) if args.site else build_site(Path(tmp) / "site", url, dist, strict=False)
        server = start_server(root, port)
        widget_id = (root / args.page / "index.html").read_text().split('data-widget-id="', 1)[1].split('"', 1)[0]
        with sync_playwright() as playwright:
            lines = trace_cold_load(playwright, f"{url}{args.page}#widget-{widget_id}", args.save)
        print("\n".join(lines))
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
