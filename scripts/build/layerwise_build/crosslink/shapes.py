"""```shapes fence: a table of tensor shapes, symbolic and with the sizes of the default config.

Each body line is `name: (T, d)`; a size may be arithmetic of letters and whole numbers with `+ - * // /` (`3*d`,
`hs/2`; `/` only where it divides exactly under the default config). The letters come from the default
`<package>.config.GPTConfig()`, except B, the batch size, which is a training setting: the default
`<package>.train.TrainSettings().batch_size`. V has no default size (the training text fixes it), so it stays a letter.
"""
from __future__ import annotations

import ast
import operator
from html import escape

from .render import scroll_box

# letter -> (config field, or None when the size is not in the config; what it means)
LETTERS = {
    "B": (None, "batch size, a training setting"),
    "T": ("seq_len", "sequence length"),
    "d": ("emb_dim", "embedding width"),
    "H": ("num_heads", "attention heads"),
    "hs": (None, "head size, d / H"),
    "F": ("ff_dim", "feed-forward width"),
    "L": ("num_layers", "blocks"),
    "V": (None, "vocabulary size"),
}
V_NOTE = "V is the number of distinct characters in the training text"
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
              ast.Div: operator.truediv}
ALLOWED = "letters, whole numbers, + - * // and / (exact division), and parentheses"


class ShapeError(ValueError):
    pass


def letter_values(config, settings=None) -> dict[str, int | None]:
    """Letter -> size under `config` (a GPTConfig) and `settings` (a TrainSettings, for B; None when the package
    has none, and then a shape using B is an error)."""
    values = {}
    for letter, (field_name, _) in LETTERS.items():
        if field_name is not None:
            if not hasattr(config, field_name):
                raise ShapeError(f"{type(config).__name__} has no field {field_name!r} for the letter {letter}")
            values[letter] = getattr(config, field_name)
    values["hs"] = values["d"] // values["H"]
    values["V"] = None
    if settings is not None:
        values["B"] = settings.batch_size
    return values


def _size(node: ast.expr, values: dict) -> int | None:
    """The number a size expression stands for; None when it involves V."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        if node.id == "B" and "B" not in values:
            raise ShapeError("the letter B needs the training defaults (train.TrainSettings), and there are none")
        if node.id not in values:
            raise ShapeError(f"unknown size letter {node.id!r} (known: {', '.join(LETTERS)})")
        return values[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _size(node.left, values), _size(node.right, values)
        if left is None or right is None:
            return None
        if isinstance(node.op, (ast.Div, ast.FloorDiv)) and right == 0:
            raise ShapeError(f"size {ast.unparse(node)!r} divides by zero under the default config")
        if isinstance(node.op, ast.Div) and left % right:
            raise ShapeError(f"size {ast.unparse(node)!r} is {left}/{right}, not a whole number under the default "
                             f"config: a size must divide exactly (use // to round down on purpose)")
        return int(_OPERATORS[type(node.op)](left, right))
    raise ShapeError(f"size {ast.unparse(node)!r} is not arithmetic the shapes table knows: it allows {ALLOWED}")


def parse_shape(text: str) -> list[ast.expr]:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ShapeError(f"shape {text.strip()!r} is not a tuple like (T, d)") from None
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def shape_rows(body: str, values: dict) -> list[tuple[str, str, str, set[str]]]:
    """(name, symbolic, numeric, letters used) for each `name: (T, d)` line of the fence body."""
    rows = []
    for number, line in enumerate(body.splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, shape = line.partition(":")
        if not sep:
            raise ShapeError(f"line {number} of the fence, {line.strip()!r}, is not `name: (T, d)`")
        try:
            dims = parse_shape(shape)
            symbolic = [ast.unparse(d) for d in dims]
            numeric = [str(s) if (s := _size(d, values)) is not None else sym for d, sym in zip(dims, symbolic)]
        except ShapeError as error:
            raise ShapeError(f"line {number} of the fence ({name.strip()}): {error}") from None
        letters = {n.id for d in dims for n in ast.walk(d) if isinstance(n, ast.Name)}
        comma = "," if len(dims) == 1 else ""
        rows.append((name.strip(), f"({', '.join(symbolic)}{comma})", f"({', '.join(numeric)}{comma})", letters))
    return rows


def render_shapes(title: str, body: str, config, settings, site_href: str | None, site_label: str | None) -> str:
    values = letter_values(config, settings)
    rows = shape_rows(body, values)
    used = set().union(*(r[3] for r in rows)) if rows else set()
    notes = []
    for letter, (field_name, meaning) in LETTERS.items():
        if letter not in used:
            continue
        if letter == "V":
            notes.append(V_NOTE)
        elif letter == "B":
            notes.append(f"B is batch_size, {values['B']}, a training default")
        elif letter == "hs":
            notes.append(f"hs is d / H, {values['hs']}")
        else:
            notes.append(f"{letter} is {field_name}, {values[letter]}")
    site = f' <a class="lw-shapes__site" href="{escape(site_href)}">{escape(site_label)}</a>' if site_href else ""
    body_rows = "".join(
        f"<tr><td><code>{escape(n)}</code></td><td><code>{escape(s)}</code></td><td><code>{escape(v)}</code></td></tr>"
        for n, s, v, _ in rows
    )
    return (
        f'<div class="lw-shapes"{scroll_box(f"Shapes: {title}")}><p class="lw-shapes__title"><strong>{escape(title)}</strong>{site}</p>'
        f"<table><thead><tr><th>Tensor</th><th>Shape</th><th>Default config</th></tr></thead>"
        f'<tbody>{body_rows}</tbody></table><p class="lw-shapes__notes">{escape("; ".join(notes))}.</p></div>'
    )
