"""The text a page shows for each of its `[= expression:format =]` fields, from the build's own evaluator.

Page tests compare these strings with numbers worked out independently (by hand, from published examples, or with plain
Python), so a number in the prose is never only typed by hand.
"""
import importlib
import re
import pkgutil
from pathlib import Path

import engine

from layerwise_build.crosslink.values import INLINE, evaluate, value_scope  # the build's own evaluator

REPO = Path(__file__).resolve().parents[2]

SCOPE = value_scope(engine, {info.name: importlib.import_module(f"engine.{info.name}")
                             for info in pkgutil.iter_modules(engine.__path__)})


def page_text(page: str) -> str:
    """The Markdown source of `docs/<page>`."""
    return (REPO / "docs" / page).read_text()


GPT2_BOX = re.compile(r'^!!! info "In GPT-2 small"\n(?:(?: {4}.*)?\n)*', re.MULTILINE)


def without_gpt2_boxes(text: str) -> str:
    """The page's source without its "In GPT-2 small" boxes (an admonition: the title line, then indented or blank
    lines); test_gpt2_small_boxes.py checks those, so the page tests of the tiny model's numbers need not."""
    return GPT2_BOX.sub("", text)


def shown_texts(page: str) -> list[str]:
    """The shown text of every inline value of `docs/<page>` outside its GPT-2 box, in page order (repeats kept)."""
    return [evaluate(m.group("field"), SCOPE)[2] for m in INLINE.finditer(without_gpt2_boxes(page_text(page)))]


def shown_values(page: str) -> dict[str, str]:
    """`field -> shown text` for the inline values of `docs/<page>`."""
    return {m.group("field"): evaluate(m.group("field"), SCOPE)[2] for m in INLINE.finditer(page_text(page))}


def shown_after(page: str, marker: str, count: int) -> list[str]:
    """The shown texts of the first `count` inline values after the first `marker` in `docs/<page>`'s source.

    Tests of one paragraph find it by its words, so values added elsewhere on the page do not shift them.
    """
    text = page_text(page)
    start = text.index(marker)  # ValueError names a paragraph that is gone
    shown = [evaluate(m.group("field"), SCOPE)[2] for m in INLINE.finditer(text, start)][:count]
    assert len(shown) == count, f"{page}: only {len(shown)} inline values after {marker!r}"
    return shown
