"""Inline values in prose: `[= expression:format =]`, evaluated at build time with the CPython engine.

The expression sees `np`, the package under its own name (`engine`) and each of its modules by short name
(`linear`, `norms`, ...). Arrays are formatted entry by entry: `[-1.6833, 0.1100]`. The result is wrapped in
`<span class="lw-value" data-expr=... data-format=...>` so tests can recompute every value from the HTML.
"""
from __future__ import annotations

import re
from html import escape

import numpy as np

from .fences import scan

INLINE = re.compile(r"\[=\s*(?P<field>.+?)\s*=\]")
CODE_SPAN = re.compile(r"(`+[^`]*?`+)")


class InlineValueError(ValueError):
    pass


def split_field(field: str) -> tuple[str, str]:
    """`expr:fmt` -> (expr, fmt), splitting at the last colon outside brackets and strings (slices keep theirs)."""
    depth, quote, split = 0, None, None
    for i, ch in enumerate(field):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0:
            split = i
    if split is None:
        return field.strip(), ""
    return field[:split].strip(), field[split + 1 :].strip()


def format_value(value, fmt: str) -> str:
    if isinstance(value, (np.ndarray, list, tuple)):
        return "[" + ", ".join(format_value(v, fmt) for v in value) + "]"
    if isinstance(value, np.generic):
        value = value.item()
    return format(value, fmt)


def evaluate(field: str, scope: dict) -> tuple[str, str, str]:
    """(expression, format, formatted text); raises InlineValueError naming the expression when it fails."""
    expression, fmt = split_field(field)
    try:
        value = eval(expression, dict(scope))  # noqa: S307 - authors' own build-time expressions
        return expression, fmt, format_value(value, fmt)
    except Exception as error:  # any failure of an author's expression becomes a build problem
        raise InlineValueError(f"inline value [= {field} =] failed: {type(error).__name__}: {error}") from None


def render_values(markdown: str, scope: dict, report) -> str:
    """Replace every inline value of a page outside code (fences and `code spans` show the syntax verbatim);
    `report(message)` is called for each one that fails."""
    def replace(match):
        try:
            expression, fmt, text = evaluate(match.group("field"), scope)
        except InlineValueError as error:
            report(str(error))
            return f"**[value failed: {escape(match.group('field'))}]**"
        text = escape(text).replace("[", "&#91;").replace("]", "&#93;")  # keep Markdown from reading links
        return (f'<span class="lw-value" data-expr="{escape(expression)}" data-format="{escape(fmt)}">'
                f"{text}</span>")

    in_fence = set()
    for fence in scan(markdown):
        in_fence.update(range(fence.lineno, fence.end_lineno + 1))
    lines = markdown.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if i + 1 not in in_fence and "[=" in line:
            parts = CODE_SPAN.split(line)  # odd-numbered parts are the code spans themselves
            lines[i] = "".join(p if k % 2 else INLINE.sub(replace, p) for k, p in enumerate(parts))
    return "".join(lines)


def value_scope(package, modules: dict) -> dict:
    return {"np": np, package.__name__: package, **modules}
