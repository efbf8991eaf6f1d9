"""`select=` on an equation or shapes fence: which lines inside a function a formula lives on.

A selector is `;`-separated parts, each one of: `return` (every return statement), `x=` or `name=x` (every
statement assigning `x`, also inside tuple targets and augmented assignments), or a literal substring of a line.
Each part must match at least one line, so a selector that went stale fails the build instead of going quiet.
"""
from __future__ import annotations

import ast
import re

from .codeindex import FileIndex, FunctionInfo


_ASSIGNS = re.compile(r"^(?:name=(?P<long>\w+)|(?P<short>[A-Za-z_]\w*)=)$")


class SelectorError(LookupError):
    pass


def _assigned_names(target: ast.AST) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_assigned_names(t) for t in target.elts))
    if isinstance(target, ast.Starred):
        return _assigned_names(target.value)
    return set()


def _statements(function: FunctionInfo) -> list[ast.stmt]:
    """Every simple (non-compound) statement in the function body, nested blocks included."""
    found = []
    for node in ast.walk(function.node):
        if isinstance(node, ast.stmt) and not hasattr(node, "body") and node is not function.node:
            found.append(node)
    return found


def _body_start(function: FunctionInfo) -> int:
    """First line after the signature and docstring: substring selectors never match the `def` line."""
    body = function.node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.end_lineno + 1 if len(body) == 1 else body[1].lineno
    return first.lineno


def _select_part(part: str, function: FunctionInfo, file: FileIndex) -> list[tuple[int, int]]:
    if part == "return":
        return [(s.lineno, s.end_lineno) for s in _statements(function) if isinstance(s, ast.Return)]
    assigns = _ASSIGNS.match(part)
    if assigns:
        name = assigns.group("long") or assigns.group("short")
        spans = []
        for s in _statements(function):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, (ast.AugAssign, ast.AnnAssign)) else []
            if any(name in _assigned_names(t) for t in targets):
                spans.append((s.lineno, s.end_lineno))
        return spans
    return [(n, n) for n in range(_body_start(function), function.end_lineno + 1) if part in file.lines[n - 1]]


def select_lines(selector: str | None, function: FunctionInfo, file: FileIndex) -> list[tuple[int, int]]:
    """(first line, last line) of each selected statement, in source order; the whole body when no selector."""
    if not selector:
        body_start = _body_start(function)
        return sorted({(s.lineno, s.end_lineno) for s in _statements(function) if s.lineno >= body_start})
    spans = set()
    for part in (p.strip() for p in selector.split(";")):
        if not part:
            continue
        matched = _select_part(part, function, file)
        if not matched:
            raise SelectorError(f"selector part {part!r} matches no line of {function.qualname}")
        spans.update(matched)
    return sorted(spans)
