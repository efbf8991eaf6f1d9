"""Find the directive fences of a Markdown page before it is rendered (the collect pass reads every page first).

A fence is ```` ```name key="value" ... ```` at any indentation (inside tabs and admonitions too), closed by a
fence of the same character and at least the same length. Fences inside other fences (a page that *shows* the
syntax in a ```` ```` ```` block) are skipped, exactly as Markdown would.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"^(?P<indent>[ \t>]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<name>[\w-]*)(?P<attrs>.*)$")
_ATTR = re.compile(r'([A-Za-z][\w-]*)=(?:"([^"]*)"|\'([^\']*)\')')


@dataclass(frozen=True)
class Fence:
    name: str  # the info string's first word: equation, codemath, shapes, ...
    attrs: dict
    body: str
    lineno: int  # 1-based line of the opening fence
    end_lineno: int  # 1-based line of the closing fence (the last line when it is never closed)


def parse_attrs(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3) for m in _ATTR.finditer(text)}


def scan(markdown: str) -> list[Fence]:
    """Every fenced block of the page, outermost only, in document order."""
    lines = markdown.splitlines()
    fences, i = [], 0
    while i < len(lines):
        opening = _OPEN.match(lines[i])
        if not opening:
            i += 1
            continue
        marker, indent = opening.group("fence"), opening.group("indent")
        closing = re.compile(rf"^{re.escape(indent)}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        body = "\n".join(line[len(indent):] for line in lines[i + 1 : j])
        fences.append(Fence(opening.group("name"), parse_attrs(opening.group("attrs")), body, i + 1,
                            min(j + 1, len(lines))))
        i = j + 1
    return fences


def number_codemath_fences(markdown: str) -> str:
    """Give each ```codemath fence a `group="N"` so its renderer knows which equations are above it.

    The Markdown renderer does not visit fences in document order (nested ones come later), so the order is
    fixed here, by the same scan the collect pass uses.
    """
    lines = markdown.splitlines(keepends=True)
    for group, fence in enumerate(f for f in scan(markdown) if f.name == "codemath"):
        line = lines[fence.lineno - 1]
        end = len(line.rstrip("\r\n"))
        lines[fence.lineno - 1] = f'{line[:end]} group="{group}"{line[end:]}'
    return "".join(lines)


def display_math_outside_fences(markdown: str) -> list[int]:
    """Lines opening display math (`$$` or `\\[`) outside any fence: every display equation must be an
    ```equation fence, so that it has an id and a code link."""
    fenced = {n for fence in scan(markdown) for n in range(fence.lineno, fence.end_lineno + 1)}
    openings, inside_dollars = [], False
    for n, line in enumerate(markdown.splitlines(), 1):
        text = line.strip()
        if n in fenced:
            continue
        if text.startswith("$$"):
            if not inside_dollars:
                openings.append(n)
            one_line = len(text) > 2 and text.endswith("$$")
            inside_dollars = not inside_dollars and not one_line
        elif text.startswith("\\[") and not inside_dollars:
            openings.append(n)
    return openings
