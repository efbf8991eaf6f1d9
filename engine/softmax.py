"""Softmax over the last axis: turns scores into probabilities that are positive and sum to 1.

Subtracting the row maximum first changes nothing mathematically (softmax is shift-invariant) but keeps
``exp`` from overflowing, so any finite input works. ``-inf`` entries (masked scores) get probability 0.
"""
import numpy as np

from .errors import LayerwiseError, as_float_array, check_shape


def softmax_forward(x):
    """Probabilities ``exp(x - max) / sum(exp(x - max))`` along the last axis; returns ``(p, cache)``."""
    x = as_float_array("softmax_forward", "x", x)  # (..., n)
    if x.ndim == 0 or x.shape[-1] == 0:
        raise LayerwiseError(f"softmax_forward: x needs a non-empty last axis, got shape {x.shape}")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise LayerwiseError("softmax_forward: x must not contain NaN or +inf (-inf is allowed for masked entries)")
    row_max = x.max(axis=-1, keepdims=True)  # (..., 1)
    if np.isneginf(row_max).any():
        raise LayerwiseError("softmax_forward: a row of x is entirely -inf, so it has no probabilities to share")
    e = np.exp(x - row_max)  # (..., n)
    p = e / e.sum(axis=-1, keepdims=True)  # (..., n)
    return p, {"p": p}


def softmax_backward(dp, cache):
    """``dx = p * (dp - sum(dp * p))`` along the last axis: the Jacobian-vector product without the Jacobian."""
    p = cache["p"]
    dp = as_float_array("softmax_backward", "dp", dp)
    check_shape("softmax_backward", "dp", dp, p.shape)
    return p * (dp - (dp * p).sum(axis=-1, keepdims=True))
