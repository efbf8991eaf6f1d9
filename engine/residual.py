"""Residual connection ``y = x + f(x)``: the sublayer only learns a correction to its input.

Its derivative is the identity plus the sublayer's Jacobian, so the skip path hands the upstream gradient back
unchanged: the gradient reaching x is dy (skip) plus whatever flows back through f.
"""
from .errors import as_float_array, check_finite, check_shape


def residual_forward(x, fx):
    """``y = x + fx`` for two arrays of the same shape (no broadcasting); returns ``(y, cache)``."""
    x = as_float_array("residual_forward", "x", x)
    fx = as_float_array("residual_forward", "fx", fx)
    check_shape("residual_forward", "fx", fx, x.shape)
    check_finite("residual_forward", "x", x)  # as every other layer: NaN or inf would spread unnoticed
    check_finite("residual_forward", "fx", fx)
    return x + fx, {"shape": x.shape}


def residual_backward(dy, cache):
    """Return ``(dx_skip, dfx)``: both branches receive dy; the caller adds dx_skip to the gradient through f."""
    dy = as_float_array("residual_backward", "dy", dy)
    check_shape("residual_backward", "dy", dy, cache["shape"])
    return dy, dy
