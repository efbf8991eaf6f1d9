"""Normalisation layers: LayerNorm (GPT-2) and RMSNorm (LLaMA-style), each over a token's d features.

LayerNorm uses the *biased* variance (divide by d, not d - 1) with eps inside the square root, as GPT-2 does.
The caches keep the per-row statistics and the normalised ``x_hat`` that pages display.
"""
import math

import numpy as np

from .errors import LayerwiseError, ShapeError, as_float_array, check_finite, check_shape


DEFAULT_EPS = 1e-5  # GPT-2's LayerNorm epsilon, and the default of PyTorch's nn.LayerNorm


def _check_norm_inputs(where, x, eps, params):
    """Check x ``(..., d)``, eps, and that every per-feature parameter has shape ``(d,)``; return float arrays."""
    x = as_float_array(where, "x", x)
    if x.ndim == 0 or x.shape[-1] == 0:
        raise ShapeError(f"{where}: x needs a non-empty last (feature) axis, got shape {x.shape}")
    check_finite(where, "x", x)
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.number)) or not math.isfinite(eps) or eps < 0:
        raise LayerwiseError(f"{where}: eps must be a finite number >= 0, got {eps!r}")
    d = x.shape[-1]
    checked = []
    for name, value in params.items():
        value = as_float_array(where, name, value)
        if value.shape != (d,):
            raise ShapeError(f"{where}: {name} has shape {value.shape} but x has {d} features; expected ({d},)")
        check_finite(where, name, value)
        checked.append(value)
    return x, checked


def _reciprocal_root(where, mean_square, eps):
    """``1 / sqrt(mean_square + eps)``, refusing a zero denominator (a constant row with eps = 0)."""
    if eps == 0 and (mean_square == 0).any():
        raise LayerwiseError(f"{where}: a row of x has zero spread and eps = 0, so it cannot be normalised; "
                             f"use eps > 0")
    return 1.0 / np.sqrt(mean_square + eps)


def layernorm_forward(x, gamma, beta, eps=DEFAULT_EPS):
    """``y = gamma * (x - mean) / sqrt(var + eps) + beta`` per row of x ``(..., d)``; returns ``(y, cache)``."""
    x, (gamma, beta) = _check_norm_inputs("layernorm_forward", x, eps, {"gamma": gamma, "beta": beta})
    mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
    centred = x - mean  # (..., d)
    var = (centred**2).mean(axis=-1, keepdims=True)  # (..., 1); biased: divide by d
    rstd = _reciprocal_root("layernorm_forward", var, eps)  # (..., 1)
    x_hat = centred * rstd  # (..., d); mean 0, variance ~1 per row
    y = gamma * x_hat + beta  # (..., d)
    return y, {"mean": mean, "var": var, "rstd": rstd, "x_hat": x_hat, "gamma": gamma}


def layernorm_backward(dy, cache):
    """Return ``(dx, dgamma, dbeta)`` using ``dx = (g - mean(g) - x_hat * mean(g * x_hat)) * rstd``, g = gamma * dy."""
    x_hat, rstd = cache["x_hat"], cache["rstd"]
    dy = as_float_array("layernorm_backward", "dy", dy)
    check_shape("layernorm_backward", "dy", dy, x_hat.shape)
    g = cache["gamma"] * dy  # (..., d)
    dx = (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * rstd
    lead = tuple(range(dy.ndim - 1))  # gamma and beta are shared by every row
    dgamma = (dy * x_hat).sum(axis=lead)  # (d,)
    dbeta = dy.sum(axis=lead)  # (d,)
    return dx, dgamma, dbeta


def rmsnorm_forward(x, gamma, eps=DEFAULT_EPS):
    """``y = gamma * x / sqrt(mean(x^2) + eps)`` per row: no mean subtraction, no bias; returns ``(y, cache)``."""
    x, (gamma,) = _check_norm_inputs("rmsnorm_forward", x, eps, {"gamma": gamma})
    ms = (x**2).mean(axis=-1, keepdims=True)  # (..., 1) mean square
    rrms = _reciprocal_root("rmsnorm_forward", ms, eps)  # (..., 1)
    x_hat = x * rrms  # (..., d); root mean square ~1 per row
    return gamma * x_hat, {"ms": ms, "rrms": rrms, "x_hat": x_hat, "gamma": gamma}


def rmsnorm_backward(dy, cache):
    """Return ``(dx, dgamma)`` with ``dx = (g - x_hat * mean(g * x_hat)) * rrms``, g = gamma * dy."""
    x_hat, rrms = cache["x_hat"], cache["rrms"]
    dy = as_float_array("rmsnorm_backward", "dy", dy)
    check_shape("rmsnorm_backward", "dy", dy, x_hat.shape)
    g = cache["gamma"] * dy  # (..., d)
    dx = (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * rrms
    dgamma = (dy * x_hat).sum(axis=tuple(range(dy.ndim - 1)))  # (d,)
    return dx, dgamma


def layernorm_param_count(num_layers, emb_dim):
    """LayerNorm parameters of a pre-LN GPT: two norms per block plus the final one, each gamma and beta of size d."""
    return (2 * num_layers + 1) * 2 * emb_dim
