"""Values as the feedback shows them: at most 2-D grids of text, with the entries that differ marked.

A value with more than two axes shows one matrix: the first that holds a wrong entry, and the inputs show the
matrix at the same index where their leading axes allow, so the learner sees the numbers that went in.

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


def matrix(value, lead=()):
    """The at most 2-D part shown and the index that says which: for a value with more than two axes, the matrix
    ``value[lead]`` (the first one when ``lead`` does not fit its leading axes)."""
    value = np.asarray(value)
    if value.ndim <= 2:
        return (value.reshape(1, -1) if value.ndim < 2 else value), ""
    leading = value.shape[:-2]
    fits = len(lead) == len(leading) and all(i < n for i, n in zip(lead, leading))
    lead = tuple(lead) if fits else (0,) * len(leading)
    return value[lead], "[" + ", ".join(str(i) for i in lead) + "]"


def _text(entry, decimals):
    if isinstance(entry, (bool, np.bool_)):
        return str(bool(entry))
    if isinstance(entry, (int, np.integer)):
        return str(int(entry))
    return format_number(entry, decimals)


def grid(value, decimals=4, lead=()):
    shown, _ = matrix(value, lead)
    return [[_text(entry, decimals) for entry in row] for row in shown.tolist()]


def named(name, value, decimals=4, lead=()):
    """``{"name", "cells"}`` for an array, a number, or (shown by type) anything else such as a generator."""
    if isinstance(value, (np.ndarray, int, float, np.number, bool)):
        _, index = matrix(value, lead)
        label = f"{name}{index} (one matrix of {name}, shape {np.shape(value)})" if index else name
        return {"name": label, "cells": grid(value, decimals, lead)}
    if value is None or isinstance(value, (tuple, str)):
        return {"name": name, "cells": [[repr(value)]]}
    kind = "a function" if callable(value) else f"a {type(value).__name__}"
    return {"name": name, "cells": [[kind]]}


def first_wrong_matrix(wrong):
    """The leading index of the first matrix holding a wrong entry (``()`` for at most 2-D values)."""
    if wrong.ndim <= 2 or not wrong.any():
        return ()
    return tuple(int(i) for i in np.argwhere(wrong)[0][:-2])


def comparison(name, expected, got):
    """``expected``, ``got``, ``wrong`` (None when the shapes differ) and the leading index of the matrix shown."""
    if expected.shape != got.shape:
        return named(name, expected), named(name, got), None, ()
    wrong = ~close(got, expected)
    lead = first_wrong_matrix(wrong)
    wrong_shown, _ = matrix(wrong, lead)
    decimals = 4
    while decimals < MAX_DECIMALS and any(
            e == g for e, g, w in zip(_flat(grid(expected, decimals, lead)), _flat(grid(got, decimals, lead)),
                                      wrong_shown.ravel()) if w):
        decimals += 2
    return named(name, expected, decimals, lead), named(name, got, decimals, lead), wrong_shown.tolist(), lead


def _flat(cells):
    return [text for row in cells for text in row]
