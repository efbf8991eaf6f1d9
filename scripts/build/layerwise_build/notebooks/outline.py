"""A page's outline, what its notebook is made of: the headings, each with the first sentence of its section, and the
page's live parts (``widget``, ``shapes`` and ``exercise`` fences) in document order.

Read from the page's Markdown as the cross-linker hands it on (inline values already filled in), with the fences
found by ``crosslink.fences.scan``, the scanner the build's collect pass uses.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ..crosslink.fences import Fence, scan

PARTS = ("widget", "shapes", "exercise")  # the fences a notebook turns into code
_HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*(?:\{[^}]*\}\s*)?$")  # levels 1-3, an attribute list {#id} dropped
# A block that is not running prose: an admonition, a collapsible block, a tab, a table, raw HTML, a list, a quote
_NOT_PROSE = re.compile(r"^(!!!|\?\?\?|===|\||<|[-*+] |\d+\. |>)")
_LIST_ITEM = re.compile(r"^([-*+]|\d+\.) ")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`$*\[])")  # before a capital, code, math, bold or a link


@dataclass(frozen=True)
class Heading:
    level: int
    text: str  # as written in Markdown


@dataclass(frozen=True)
class Sentence:
    text: str  # Markdown: the first sentence of a section (with the list it introduces, when it ends in a colon)


Item = Heading | Sentence | Fence


def outline(markdown: str) -> list[Item]:
    """Headings, first sentences and live-part fences of ``markdown``, in document order."""
    fences = scan(markdown)
    fenced = {n for fence in fences for n in range(fence.lineno, fence.end_lineno + 1)}
    starts = {fence.lineno: fence for fence in fences if fence.name in PARTS}
    items, section = [], 0  # section: where the current section's sentence goes, right after its heading
    blocks, block = [], []  # the current section's runs of text lines, and the run being read

    def close_section():
        sentence = first_sentence(blocks)
        if sentence:
            items.insert(section, Sentence(sentence))
        blocks.clear()

    for n, line in enumerate(markdown.splitlines(), 1):
        heading = None if n in fenced else _HEADING.match(line)
        if n in fenced or heading or not line.strip():
            if block:
                blocks.append(block)
                block = []
        if heading:
            close_section()
            items.append(Heading(len(heading.group(1)), heading.group(2)))
            section = len(items)
        elif n in starts:
            items.append(starts[n])
        elif n not in fenced and line.strip():
            block.append(line)
    if block:
        blocks.append(block)
    close_section()
    return items


def first_sentence(blocks: list[list[str]]) -> str | None:
    """The first sentence of the first block of prose (a sentence ending in ':' keeps the list that follows it); in
    a section without prose (takeaways, references), its first list item."""
    for i, block in enumerate(blocks):
        if block[0].startswith((" ", "\t")) or _NOT_PROSE.match(block[0]):
            continue
        sentence = _sentence(block)
        following = blocks[i + 1] if i + 1 < len(blocks) else []
        if sentence.endswith(":") and following and _LIST_ITEM.match(following[0]):
            sentence += "\n\n" + "\n".join(following)
        return sentence
    for block in blocks:
        if _LIST_ITEM.match(block[0]):
            item = [block[0]] + list(itertools.takewhile(lambda line: not _LIST_ITEM.match(line), block[1:]))
            return " ".join(line.strip() for line in [_LIST_ITEM.sub("", item[0]), *item[1:]])
    return None


def _sentence(lines: list[str]) -> str:
    return _SENTENCE_END.split(" ".join(line.strip() for line in lines), maxsplit=1)[0]
