"""Pieces of the browser benchmarks (``bench_*.py``, ``trace_widgets.py``): the site built and served for a run,
variants of a built page, cold and warm loads on on-disk Chromium profiles, edits typed through the page, and a
Chrome trace summary."""
