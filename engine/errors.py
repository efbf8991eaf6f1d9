"""Errors and the argument checks every layer shares.

Every message names the function (``where``), the argument, what was expected and what arrived, so a learner who
types a wrong matrix into a widget reads what to fix instead of a NumPy broadcasting trace.
"""
import numpy as np


class LayerwiseError(ValueError):
    """Bad input to the engine: a wrong shape, an out-of-range id, a non-finite value, ..."""


class ShapeError(LayerwiseError):
    """An array has the wrong number of dimensions or the wrong size along one of them."""


class ConfigError(LayerwiseError):
    """A configuration key is unknown or has the wrong type or value."""


class CheckpointError(LayerwiseError):
    """A checkpoint file is corrupt or does not match what the engine expects."""


class VocabularyError(LayerwiseError):
    """Text contains a character the vocabulary does not know, or an id has no character."""


def as_array(where, name, x):
    """``np.asarray(x)``, with lists NumPy cannot make one array of (rows of different lengths) named."""
    try:
        return np.asarray(x)
    except (ValueError, TypeError):
        raise LayerwiseError(f"{where}: {name} is not a rectangular array: its rows must all have the same "
                             "length") from None


def as_float_array(where, name, x):
    """Return ``x`` as a floating-point array (float64 unless already floating); reject non-numeric input."""
    array = np.asarray(x) if isinstance(x, np.ndarray) else as_array(where, name, x)
    kind = array.dtype.kind  # one-letter codes are much cheaper than issubdtype on this hot path
    if kind == "f":
        return array
    if kind == "c":
        raise LayerwiseError(f"{where}: {name} must be real, got complex values")
    if kind not in "iub":
        raise LayerwiseError(f"{where}: {name} must be numeric, got an array of {array.dtype}")
    return array.astype(np.float64)


def check_ndim(where, name, x, ndim):
    """Require ``x.ndim == ndim``; ``ndim`` may also be a tuple of allowed values."""
    allowed = ndim if isinstance(ndim, tuple) else (ndim,)
    if x.ndim not in allowed:
        wanted = " or ".join(str(n) for n in allowed)
        raise ShapeError(f"{where}: {name} must have {wanted} dimensions, got shape {x.shape} ({x.ndim} dimensions)")


def check_shape(where, name, x, expected):
    """Require ``x.shape`` to match ``expected``, where ``None`` stands for any size along that axis."""
    matches = x.ndim == len(expected) and all(e is None or e == s for e, s in zip(expected, x.shape))
    if not matches:
        sizes = ", ".join("any" if e is None else str(e) for e in expected)
        shown = f"({sizes},)" if len(expected) == 1 else f"({sizes})"
        raise ShapeError(f"{where}: {name} has shape {x.shape}; expected {shown}")


def check_finite(where, name, x):
    """Reject NaN and infinite entries, reporting how many and the first position."""
    bad = ~np.isfinite(x)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise LayerwiseError(f"{where}: {name} must be finite, but {int(bad.sum())} entries are not "
                             f"(first at index {first}: {x[first]})")


def check_count(where, name, n, low=0):
    """Return ``n`` as an int after requiring an integer (not a bool, not 4.0) of at least ``low``: a size, a step;
    a 0-d array is its number."""
    if isinstance(n, np.ndarray) and n.shape == ():
        n = n.item()
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < low:
        raise LayerwiseError(f"{where}: {name} must be an integer >= {low}, got {n!r}")
    return int(n)


def check_real(where, name, x, low=0.0, strict=True):
    """Return ``x`` as a float after requiring a finite real number above ``low`` (at least ``low`` unless
    ``strict``); a 0-d array is its number."""
    if isinstance(x, np.ndarray) and x.shape == ():
        x = x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or not np.isfinite(x) or (
            x <= low if strict else x < low):
        raise LayerwiseError(f"{where}: {name} must be a finite number {'>' if strict else '>='} {low:g}, got {x!r}")
    return float(x)


def check_token_ids(where, name, ids, vocab_size):
    """Return ``ids`` as an integer array after checking every id lies in ``[0, vocab_size)``."""
    array = as_array(where, name, ids)
    if array.dtype.kind not in "iu":
        if array.size and array.dtype.kind == "f" and np.all(array == np.round(array)):
            array = array.astype(np.int64)  # whole numbers typed into a widget arrive as floats
        elif array.size:
            raise LayerwiseError(f"{where}: {name} must be integer token ids, got an array of {array.dtype}")
        else:
            array = array.astype(np.int64)
    out_of_range = (array < 0) | (array >= vocab_size)
    if out_of_range.any():
        first = tuple(int(i) for i in np.argwhere(out_of_range)[0])
        raise LayerwiseError(f"{where}: {name} must lie in [0, {vocab_size}) for a vocabulary of {vocab_size}, "
                             f"got {int(array[first])} at index {first}")
    return array


def check_probability(where, name, p):
    """Require a real number ``p`` with ``0 <= p < 1`` (a dropout rate; 1 would drop everything)."""
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise LayerwiseError(f"{where}: {name} must be a number in [0, 1), got {p!r}")
    if not 0.0 <= float(p) < 1.0:
        raise LayerwiseError(f"{where}: {name} must lie in [0, 1), got {p}")
