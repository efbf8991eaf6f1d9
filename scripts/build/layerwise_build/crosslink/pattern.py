"""`pattern=` on an equation fence: find where a formula is written inline, by the shape of its `ast`.

The pattern is a Python expression in which the name `_` matches any sub-expression; every other node must
match in type and in its non-positional fields (names, attributes, operators, constants).
`_ @ _ + _` matches `X @ W + b` and `h @ params["w"] + params["b"]`, but not `X @ (W + b)`.
"""
from __future__ import annotations

import ast

WILDCARD = "_"
_IGNORED_FIELDS = {"ctx", "type_comment", "kind"}


class PatternError(ValueError):
    pass


def compile_pattern(text: str) -> ast.expr:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError as error:
        raise PatternError(f"pattern {text!r} is not a Python expression: {error.msg}") from None


def matches(pattern: ast.AST, node: ast.AST) -> bool:
    if isinstance(pattern, ast.Name) and pattern.id == WILDCARD:
        return isinstance(node, ast.expr)
    if type(pattern) is not type(node):
        return False
    for name in pattern._fields:
        if name in _IGNORED_FIELDS:
            continue
        expected, actual = getattr(pattern, name, None), getattr(node, name, None)
        if isinstance(expected, list):
            if not isinstance(actual, list) or len(expected) != len(actual):
                return False
            if not all(_field_matches(e, a) for e, a in zip(expected, actual)):
                return False
        elif not _field_matches(expected, actual):
            return False
    return True


def _field_matches(expected, actual) -> bool:
    if isinstance(expected, ast.AST):
        return isinstance(actual, ast.AST) and matches(expected, actual)
    return expected == actual


def find_matches(pattern: ast.expr, tree: ast.AST) -> list[ast.expr]:
    """Every expression in `tree` the pattern matches, outermost first within a line."""
    found = [node for node in ast.walk(tree) if isinstance(node, ast.expr) and matches(pattern, node)]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))
