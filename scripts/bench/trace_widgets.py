"""Where the time goes: Chrome traces of one cold load of a widget page (fresh on-disk profile, until the engine
is ready) and of edits typed into its first widget, summarised by main-thread phase, script URL and long task
(needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/bench/trace_widgets.py [--page layers/layernorm/] [--edits 30] [--save t]

``--save t`` writes t-load.json and t-edits.json; they open in Chrome DevTools' Performance panel or Perfetto.

The saved trace opens in Chrome's DevTools (Performance panel) or https://ui.perfetto.dev.
"""
import argparse
import contextlib
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import loads, trace  # noqa: E402
from browserbench.edits import type_edits  # noqa: E402
from browserbench.served import built_and_served, served  # noqa: E402


def trace_load_and_edits(playwright, url, edits, save_to=None):
    lines = []
    with loads.fresh_profile(playwright) as context:
        page = context.pages[0]
        load = trace.record(page, lambda: (page.goto(url), page.wait_for_function(
            loads.WIDGETS_READY, timeout=loads.READY_TIMEOUT_MS)))
        lines.append(f"cold load, engine ready at {page.evaluate(loads.WIDGETS_READY):.0f} ms (traced, so slower):")
        lines += trace.summarise(load, url.split("#")[0])
        typed = []
        if edits:
            edit_trace = trace.record(page, lambda: typed.extend(type_edits(page, ".lw-widget", edits)))
            dom = sorted(t[0] for t in typed)
            lines.append(f"{edits} typed edits, to DOM median {dom[len(dom) // 2]:.1f} ms (traced):")
            lines += trace.summarise(edit_trace, url.split("#")[0])
    if save_to:
        trace.save(load, f"{save_to}-load.json")
        if edits:
            trace.save(edit_trace, f"{save_to}-edits.json")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", default="layers/layernorm/", help="a page with a widget (site-relative)")
    parser.add_argument("--edits", type=int, default=30, help="edits typed while the second trace records (0: none)")
    parser.add_argument("--save", help="also write the raw traces to <SAVE>-load.json and <SAVE>-edits.json")
    parser.add_argument("--site", help="serve this already built site instead of building one")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist and not args.site:
        sys.exit("PYODIDE_DIST is not set: the trace needs a self-hosted Pyodide with NumPy (../shared/README.md)")

    from playwright.sync_api import sync_playwright
    with contextlib.ExitStack() as stack:
        if args.site:
            root, url = Path(args.site), stack.enter_context(served(args.site))
        else:
            root, url = stack.enter_context(built_and_served(dist))
        widget_id = (root / args.page / "index.html").read_text().split('data-widget-id="', 1)[1].split('"', 1)[0]
        with sync_playwright() as playwright:
            lines = trace_load_and_edits(playwright, f"{url}{args.page}#widget-{widget_id}", args.edits, args.save)
        print("\n".join(lines))


if __name__ == "__main__":
    main()
