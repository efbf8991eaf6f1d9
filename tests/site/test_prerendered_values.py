"""Every value pre-rendered into the HTML by `[= expr:fmt =]` equals what the engine computes in CPython.

The expression and format are read back from the span's data attributes and recomputed here, in this process,
with a freshly imported engine; so a stale or mis-formatted value in the page fails the test.
"""
import importlib
import pkgutil
import re
from html import unescape

import numpy as np

import engine

SPAN = re.compile(r'<span class="lw-value" data-expr="([^"]*)" data-format="([^"]*)">(.*?)</span>', re.S)


def _format(value, fmt):
    if isinstance(value, (np.ndarray, list, tuple)):
        return "[" + ", ".join(_format(v, fmt) for v in value) + "]"
    return format(value.item() if isinstance(value, np.generic) else value, fmt)


def test_every_inline_value_matches_cpython(built_site):
    scope = {"np": np, "engine": engine}
    for info in pkgutil.iter_modules(engine.__path__):
        if not info.name.startswith("_"):
            scope[info.name] = importlib.import_module(f"engine.{info.name}")
    checked = 0
    for page in sorted(built_site.rglob("*.html")):
        for expr, fmt, shown in SPAN.findall(page.read_text()):
            if "measured_" in expr:  # a timing (modern_block.measured_speeds): another run measures another value
                assert float(unescape(shown).replace(",", "")) > 0, expr
                continue
            expected = _format(eval(unescape(expr), dict(scope)), unescape(fmt))
            assert unescape(shown) == expected, f"{page.relative_to(built_site)}: [= {unescape(expr)} =]"
            checked += 1
    assert checked >= 20


def test_the_worked_numbers_of_the_three_layer_pages(built_site):
    """Spot checks against the source documents' hand-worked numbers, independent of the page's own expressions."""
    layernorm = unescape((built_site / "layers" / "layernorm" / "index.html").read_text())
    assert "[-1.6833, 0.1056, 1.8944, 3.6833]" in layernorm  # x = (1,2,3,4), gamma 2, beta 1
    assert "[-1.3416, -0.4472, 0.4472, 1.3416]" in layernorm  # x = [2,4,6,8] normalised
    embedding_page = unescape((built_site / "layers" / "embedding" / "index.html").read_text())
    assert "[[0.5, 0.6], [0.1, 0.2], [0.5, 0.6]]" in embedding_page  # ids [2, 0, 2]
    assert "[[2.0, 2.0], [0.0, 0.0], [4.0, 4.0]]" in embedding_page  # repeated id 2 accumulates 1+3
    linear_page = unescape((built_site / "layers" / "linear" / "index.html").read_text())
    assert "[[-1.0, 3.0, 1.0], [-1.0, 2.0, -1.0]]" in linear_page  # X W + b of the worked example
