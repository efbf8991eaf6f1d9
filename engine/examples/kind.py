"""The widget-kind contract: what a kind declares (dimensions, inputs) and what it returns (blocks of numbers).

A kind is data plus one ``compute`` function. The build calls it to pre-render a page; the Pyodide worker calls the
same function when a reader edits a cell. Both go through :func:`Kind.run`, so the JSON (and every formatted
string in it) is identical in CPython and in the browser.
"""
from typing import Callable, NamedTuple

import numpy as np

from ..errors import LayerwiseError, ShapeError
from ..gradcheck import numerical_gradient
from .fmt import format_input, format_integer, format_number


# The records are NamedTuples, not dataclasses: importing dataclasses (and the inspect module it pulls in) cost
# ~60 ms of the browser worker's start, for records that only need names, defaults and immutability.
class Dim(NamedTuple):
    """One named size shared by every input axis that carries it (e.g. ``a``: columns of X = rows of W)."""
    symbol: str          # the letter shown in shapes: "T", "a"
    prefix: str          # header of each index: "t" -> t0, t1, ...
    min: int = 1
    max: int = 8
    resizable: bool = True  # may the reader add/remove rows or columns along it?


class Operand(NamedTuple):
    """An editable input: a scalar, vector or matrix whose axes are named by dimension symbols."""
    name: str                 # the code name: "X"
    label: str                # what it is, in words
    dims: tuple[str, ...]     # one symbol per axis: ("T", "a"); () for a scalar
    default: object           # nested lists of numbers, matching dims
    integer: bool = False     # token ids: whole numbers only
    # Inclusive (low, high) for every entry, checked here and in the browser's cells. Declare it for inputs where
    # values outside make no sense, and for chaotic ones (a learning rate): there Pyodide's and CPython's round-off
    # would grow into visible differences. The high end may name a scalar input listed before this one ("steps"): its
    # value is the bound, so both sides flag the cell while another cell is wrong too.
    bounds: tuple[float, float | str] | None = None  # checked by Kind
    # A text input (a scalar, dims ()) of 1 to this many characters instead of a number: ``compute`` gets a str.
    max_length: int | None = None


class Block(NamedTuple):
    """A computed array to show: an intermediate step, a forward output or a gradient."""
    name: str                 # the code name: "dW"
    label: str                # the formula or words: "dW = X.T @ dY"
    value: np.ndarray         # bool or integer dtype (a mask, one-hot rows, ids, counts) shows as 1, 0, 12
    dims: tuple[str, ...]     # one declared symbol per axis
    group: str = "forward"    # "step" | "forward" | "backward"


class Result(NamedTuple):
    """What ``compute`` returns. ``gradient_gap`` is the largest |backward - central differences|: a float, or a
    zero-argument function computing it (preferred: the browser then shows the outputs first and the check a moment
    later, so a slow check never delays an edit's result), or None for no check."""
    blocks: tuple[Block, ...]
    arithmetic: str = ""      # one entry of the main result spelled out
    gradient_gap: float | Callable[[], float] | None = None
    notes: tuple[str, ...] = ()
    plots: tuple[tuple[str, str], ...] = ()  # (title, svg markup made by engine.examples.svg)


# The output groups, in the order shown, with the heading each gets unless its kind names it otherwise.
GROUP_TITLES = {"step": "Intermediate steps", "forward": "Forward", "backward": "Backward"}
GROUPS = tuple(GROUP_TITLES)
GRADIENT_TOLERANCE = 1e-6  # central differences with h=1e-5 agree to ~1e-9 on these small, smooth examples


class Kind:
    def __init__(self, name: str, title: str, dims: tuple[Dim, ...], inputs: tuple[Operand, ...],
                 compute: Callable[..., Result], description: str = "", group_titles: dict[str, str] | None = None):
        """``compute`` is called with one keyword argument per input, as float64 (or int64) arrays.
        ``group_titles`` renames output groups whose default heading means nothing for this kind (a training run
        has no "Forward")."""
        self.name, self.title, self.dims, self.inputs = name, title, tuple(dims), tuple(inputs)
        self.compute, self.description = compute, description
        unknown = sorted(set(group_titles or {}) - set(GROUPS))
        if unknown:
            raise LayerwiseError(f"kind {name}: unknown output group {unknown[0]!r}; expected one of {GROUPS}")
        self.group_titles = {**GROUP_TITLES, **(group_titles or {})}
        self._dims = {d.symbol: d for d in self.dims}
        for operand in self.inputs:
            unknown = [s for s in operand.dims if s not in self._dims]
            if unknown:
                raise LayerwiseError(f"kind {self.name}: input {operand.name} uses undeclared dimension {unknown[0]}")
            if operand.max_length is not None and (operand.dims or operand.integer or operand.bounds):
                raise LayerwiseError(f"kind {self.name}: text input {operand.name} must be a scalar without integer "
                                     "or bounds")
            self._check_bounds(operand)

    def _check_bounds(self, operand):
        if operand.bounds is None:
            return
        low, high = operand.bounds
        if isinstance(high, str):
            earlier = {op.name: op for op in self.inputs[:self.inputs.index(operand)]}
            if high not in earlier or earlier[high].dims:
                raise LayerwiseError(f"input {operand.name}: a bound named {high!r} must be a scalar input listed "
                                     "before it")
        elif not low < high:
            raise LayerwiseError(f"input {operand.name}: bounds must be (low, high) with low < high, "
                                 f"got {operand.bounds}")

    def defaults(self):
        return {op.name: op.default for op in self.inputs}

    def spec(self):
        """What the browser needs to edit inputs and link shapes (JSON-safe)."""
        return {
            "name": self.name,
            "title": self.title,
            "groups": self.group_titles,  # heading of each output group, in the order shown
            "dims": {d.symbol: {"prefix": d.prefix, "min": d.min, "max": d.max, "resizable": d.resizable}
                     for d in self.dims},
            "inputs": [{"name": op.name, "label": op.label, "dims": list(op.dims), "integer": op.integer,
                        "text": op.max_length,
                        "bounds": None if op.bounds is None else [b if isinstance(b, str) else float(b)
                                                                  for b in op.bounds]}
                       for op in self.inputs],
        }

    def bind(self, raw):
        """Turn a {name: nested list} dict into arrays, checking names, numbers and the shape links."""
        where = f"{self.name} example"
        names = [op.name for op in self.inputs]
        unknown = sorted(set(raw) - set(names))
        if unknown:
            raise LayerwiseError(f"{where}: unknown input {unknown[0]!r}; the inputs are {', '.join(names)}")
        missing = [n for n in names if n not in raw]
        if missing:
            raise LayerwiseError(f"{where}: input {missing[0]!r} is missing")
        prefixes = {dim.symbol: dim.prefix for dim in self.dims}
        arrays = {}
        for op in self.inputs:  # in order: a bound naming an input reads its value, checked before
            arrays[op.name] = (_as_text(where, op, raw[op.name]) if op.max_length is not None
                               else _as_array(where, op, raw[op.name], prefixes, _bounds(op, arrays)))
        self._check_links(where, arrays)
        return arrays

    def _check_links(self, where, arrays):
        first_seen = {}  # symbol -> (operand name, axis, shape)
        for op in self.inputs:
            shape = np.shape(arrays[op.name])  # () for a text input
            for axis, symbol in enumerate(op.dims):
                size, dim = shape[axis], self._dims[symbol]
                if not dim.min <= size <= dim.max:
                    raise ShapeError(f"{where}: {op.name} has shape {shape}, but its {_axis_word(op.dims, axis)} "
                                     f"({symbol}) must number between {dim.min} and {dim.max}")
                if symbol not in first_seen:
                    first_seen[symbol] = (op, axis, shape)
                    continue
                other, other_axis, other_shape = first_seen[symbol]
                if other_shape[other_axis] != size:
                    raise ShapeError(f"{where}: {other.name} has shape {other_shape} but {op.name} has shape {shape}: "
                                     f"{_axis_word(other.dims, other_axis)} of {other.name} must equal "
                                     f"{_axis_word(op.dims, axis)} of {op.name} ({symbol})")

    def run(self, raw):
        """Validate inputs, compute, and return the JSON-safe result (formatted strings included)."""
        result, finish_check = self.run_deferred(raw)
        result["gradcheck"] = finish_check()
        return result

    def run_deferred(self, raw):
        """Like :meth:`run`, but the gradient check is left to the returned ``finish_check()`` (JSON-safe or None)."""
        arrays = self.bind(raw)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # non-finite results are flagged below
            result = self.compute(**{name: np.copy(value) if isinstance(value, np.ndarray) else value
                                     for name, value in arrays.items()})
        gap = result.gradient_gap

        def finish_check():
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                return _gradcheck_json(gap() if callable(gap) else gap)

        return self._to_json(result), finish_check

    def _to_json(self, result):
        blocks = []
        for block in result.blocks:
            if block.group not in GROUPS:
                raise LayerwiseError(f"kind {self.name}: block {block.name} has group {block.group!r}; "
                                     f"expected one of {GROUPS}")
            integral = np.asarray(block.value).dtype.kind in "biu"  # whole numbers by nature, not by chance
            value = np.asarray(block.value, dtype=float)
            if value.ndim != len(block.dims) or any(s not in self._dims for s in block.dims):
                raise LayerwiseError(f"kind {self.name}: block {block.name} has shape {value.shape} "
                                     f"but dims {block.dims}")
            blocks.append({
                "name": block.name, "label": block.label, "group": block.group, "dims": list(block.dims),
                "shape": list(value.shape),
                "cells": _nested(value, format_integer if integral else format_number),
                "values": _nested(value, lambda x: x if np.isfinite(x) else None),
                "finite": bool(np.isfinite(value).all()),
            })
        return {
            "kind": self.name,
            "blocks": blocks,
            "arithmetic": result.arithmetic,
            "gradcheck": None if result.gradient_gap is None else PENDING_CHECK,
            "notes": list(result.notes),
            "plots": [{"title": title, "svg": svg} for title, svg in result.plots],
            "nonfinite": [b["name"] for b in blocks if not b["finite"]],
        }


PENDING_CHECK = {"gap": None, "ok": None, "pending": True, "text": "Gradient check: running…"}


def _gradcheck_json(gap):
    if gap is None:
        return None
    ok = bool(np.isfinite(gap) and gap <= GRADIENT_TOLERANCE)
    return {
        "gap": float(gap) if np.isfinite(gap) else None,
        "ok": ok,
        "text": (f"Gradient check: the largest gap between the backward formula and central differences "
                 f"is {gap:.1e}" + ("" if ok else f", above the tolerance {GRADIENT_TOLERANCE:.0e}")),
    }


def _axis_word(dims, axis):
    if len(dims) == 1:
        return "entries"
    return ("rows", "columns")[axis] if len(dims) == 2 else f"axis {axis}"


def _bounds(op, arrays):
    """``op``'s (low, high), a high naming another input replaced by that input's value."""
    if op.bounds is None:
        return None
    low, high = op.bounds
    return (low, arrays[high].item() if isinstance(high, str) else high)


def _as_array(where, op, raw, prefixes, bounds):
    try:
        array = np.array(raw, dtype=float)
    except (TypeError, ValueError):
        raise LayerwiseError(f"{where}: {op.name} must be {_shape_words(op)} of numbers (equal-length rows)") from None
    if array.ndim != len(op.dims):
        raise ShapeError(f"{where}: {op.name} must be {_shape_words(op)} {tuple(op.dims)}, got shape {array.shape}")
    bad = np.argwhere(~np.isfinite(array))
    if len(bad):
        raise LayerwiseError(f"{where}: {_cell_name(op, bad[0], prefixes)} is not a finite number ({array[tuple(bad[0])]})")
    if op.integer:
        fractional = np.argwhere(array != np.round(array))
        if len(fractional):
            raise LayerwiseError(f"{where}: {_cell_name(op, fractional[0], prefixes)} must be a whole number, "
                                 f"got {array[tuple(fractional[0])]}")
        array = array.astype(np.int64)
    if bounds is not None:
        low, high = bounds
        outside = np.argwhere((array < low) | (array > high))
        if len(outside):
            raise LayerwiseError(f"{where}: {_cell_name(op, outside[0], prefixes)} must be from {format_input(low)} to "
                                 f"{format_input(high)}, got {format_input(array[tuple(outside[0])])}")
    return array


def _as_text(where, op, raw):
    """A text input's str, 1 to ``op.max_length`` characters (the browser's cells say the same words)."""
    if not isinstance(raw, str):
        raise LayerwiseError(f"{where}: {op.name} must be text, got {type(raw).__name__}")
    if not raw:
        raise LayerwiseError(f"{where}: {op.name} is empty")
    if len(raw) > op.max_length:
        raise LayerwiseError(f"{where}: {op.name} has {len(raw)} characters; at most {op.max_length} fit")
    return raw


def _shape_words(op):
    return {0: "a number", 1: "a list"}.get(len(op.dims), "a matrix")


def _cell_name(op, index, prefixes):
    """Name a cell with the grid's own 0-based headers, as the browser does: "X[t1, a2]", "b[j0]"."""
    if len(index) == 0:  # a scalar input
        return op.name
    labels = ", ".join(f"{prefixes[symbol]}{i}" for symbol, i in zip(op.dims, index))
    return f"{op.name}[{labels}]"


def _nested(array, convert):
    if array.ndim == 0:
        return convert(float(array))
    return [_nested(row, convert) for row in array] if array.ndim > 1 else [convert(float(x)) for x in array]


def gradient_gap(loss, arrays, analytic):
    """Largest |analytic - numerical| over every entry of every named array; ``loss()`` reads ``arrays`` in place."""
    return max(float(np.max(np.abs(analytic[name] - numerical_gradient(loss, arrays[name])), initial=0.0))
               for name in analytic)


def layer_gradient_gap(forward, inputs, upstream, analytic):
    """A deferred gradient check of a layer's backward, for ``Result.gradient_gap``.

    The loss is ``sum(forward(**inputs)[0] * upstream)``: its gradient on the output is exactly ``upstream``, so
    ``analytic`` ({input name: array}) must be what the backward returned when given ``upstream``.
    """
    return lambda: gradient_gap(lambda: float(np.sum(forward(**inputs)[0] * upstream)), inputs, analytic)
