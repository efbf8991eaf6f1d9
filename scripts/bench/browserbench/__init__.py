"""Pieces of the browser benchmarks (``bench_widgets.py``, ``trace_widgets.py``): variants of a built
page, cold and warm loads on on-disk Chromium profiles, edits typed through the page, and a Chrome trace summary."""
