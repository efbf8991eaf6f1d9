"""Rotary position embeddings (RoPE, Su et al. 2021, "RoFormer"): positions as rotations of queries and keys.

Instead of adding a learned row to the token, RoPE turns each adjacent channel pair ``(2i, 2i+1)`` of a query or
key at position p by the angle ``p * theta_i`` with ``theta_i = base^(-2i / hs)``. A query at p and a key at s then
meet through a rotation by ``(p - s) * theta_i`` alone, so attention scores depend on the offset, not on where the
pair sits. Rotations keep lengths, and the backward is the rotation by the opposite angle.
"""
import numpy as np

from .errors import LayerwiseError, as_float_array, check_shape


def rope_frequencies(head_size, base=10000.0):
    """``theta_i = base^(-2i / hs)`` for the ``hs / 2`` channel pairs: pair 0 turns fastest (1 radian a step)."""
    if head_size < 2 or head_size % 2:
        raise LayerwiseError(f"rope_frequencies: the head size must be even and >= 2 (channels rotate in pairs), "
                             f"got {head_size}")
    if not base > 0:
        raise LayerwiseError(f"rope_frequencies: base must be > 0, got {base}")
    return base ** (-np.arange(0, head_size, 2) / head_size)  # (hs/2,)


def rope_tables(positions, head_size, base=10000.0, dtype=np.float64):
    """``(cos, sin)``, each ``(T, hs/2)``: the angle ``positions[t] * theta_i`` of every position and pair."""
    angles = np.asarray(positions, dtype=np.float64)[:, None] * rope_frequencies(head_size, base)  # (T, hs/2)
    return np.cos(angles).astype(dtype), np.sin(angles).astype(dtype)


def rotate_pairs(x, cos, sin):
    """Turn each pair ``(x[2i], x[2i+1])`` of ``x (..., T, hs)`` by the angle whose cosine and sine are given."""
    x = as_float_array("rotate_pairs", "x", x)
    check_shape("rotate_pairs", "cos", cos, (x.shape[-2], x.shape[-1] // 2))
    even, odd = x[..., 0::2], x[..., 1::2]  # (..., T, hs/2) each
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def rope_forward(x, tables):
    """Rotate queries or keys ``x (..., T, hs)`` by their positions' angles; ``tables`` from :func:`rope_tables`."""
    cos, sin = tables
    return rotate_pairs(x, cos, sin)


def rope_backward(dy, tables):
    """The gradient of a rotation is the inverse rotation (its transpose): the same pairs turned back."""
    cos, sin = tables
    return rotate_pairs(dy, cos, -sin)
