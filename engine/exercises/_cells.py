"""Values as the feedback shows them: at most 2-D grids of text, with the entries that differ marked.

Numbers get 4 decimals like the widgets' cells, and more (up to 12) when a wrong entry would otherwise print the
same as the expected one, so every marked entry visibly differs.
"""
import numpy as np

from ..examples.fmt import format_number

MAX_DECIMALS = 12


def close(got, expected):
    """Entrywise agreement: exact for integers and booleans, relative 1e-8 for floats (equal infinities agree)."""
    if expected.dtype.kind in "iub" and got.dtype.kind in "iub":
        return got == expected
    with np.errstate(invalid="ignore"):
        return np.isclose(got, expected, rtol=1e-8, atol=1e-12, equal_nan=True)


def matrix(value):
    """The at most 2-D part shown, and the words that say so: a 3-D value shows its first matrix."""
    value = np.asarray(value)
    suffix = ""
    while value.ndim > 2:
        suffix += "[0]"
        value = value[0]
    shown = value.reshape(1, -1) if value.ndim < 2 else value
    return shown, suffix


def _text(entry, decimals):
    if isinstance(entry, (bool, np.bool_)):
        return str(bool(entry))
    if isinstance(entry, (int, np.integer)):
        return str(int(entry))
    return format_number(entry, decimals)


def grid(value, decimals=4):
    shown, _ = matrix(value)
    return [[_text(entry, decimals) for entry in row] for row in shown.tolist()]


def named(name, value, decimals=4):
    """``{"name", "cells"}`` for an array, a number, or (shown by type) anything else such as a generator."""
    if isinstance(value, (np.ndarray, int, float, np.number, bool)):
        _, suffix = matrix(value)
        label = f"{name}{suffix} (the first matrix of shape {np.shape(value)})" if suffix else name
        return {"name": label, "cells": grid(value, decimals)}
    if isinstance(value, (tuple, str)):
        return {"name": name, "cells": [[repr(value)]]}
    kind = "a function" if callable(value) else f"a {type(value).__name__}"
    return {"name": name, "cells": [[kind]]}


def comparison(name, expected, got):
    """``expected``, ``got`` and ``wrong`` (or None when the shapes differ) for the failure record."""
    if expected.shape != got.shape:
        return named(name, expected), named(name, got), None
    wrong = ~close(got, expected)
    wrong_shown, _ = matrix(wrong)
    decimals = 4
    while decimals < MAX_DECIMALS and any(
            e == g for e, g, w in zip(_flat(grid(expected, decimals)), _flat(grid(got, decimals)),
                                      wrong_shown.ravel()) if w):
        decimals += 2
    return named(name, expected, decimals), named(name, got, decimals), wrong_shown.tolist()


def _flat(cells):
    return [text for row in cells for text in row]
