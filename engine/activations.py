"""Elementwise non-linearities between the two linear layers of the feed-forward block: ReLU and GELU.

GELU comes in two forms: the exact ``x * Phi(x)`` (Phi the standard normal CDF, written with erf) and the tanh
approximation GPT-2 was trained with. Both backwards are the derivative of exactly the forward they pair with.
"""
import math

import numpy as np

from .errors import as_float_array, check_finite, check_shape

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_CUBIC = 0.044715  # the cubic coefficient of GPT-2's tanh approximation

# NumPy has no vectorised erf; math.erf per element is exact and fine for the sizes pages show.
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _checked_input(where, x):
    x = as_float_array(where, "x", x)
    check_finite(where, "x", x)
    return x


def _checked_upstream(where, dy, cache):
    dy = as_float_array(where, "dy", dy)
    check_shape(where, "dy", dy, cache["x"].shape)
    return dy


def relu_forward(x):
    """``max(0, x)`` elementwise; returns ``(y, cache)``."""
    x = _checked_input("relu_forward", x)  # (...)
    return np.maximum(x, 0.0), {"x": x}


def relu_backward(dy, cache):
    """Pass ``dy`` where ``x > 0``; at exactly 0 the gradient is taken as 0 (the usual subgradient choice)."""
    dy = _checked_upstream("relu_backward", dy, cache)
    return dy * (cache["x"] > 0)


def gelu_tanh_forward(x):
    """GPT-2's GELU: ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``; returns ``(y, cache)``."""
    x = _checked_input("gelu_tanh_forward", x)  # (...)
    t = np.tanh(SQRT_2_OVER_PI * (x + GELU_CUBIC * x * x * x))  # (...); x * x * x is far faster than x**3
    return 0.5 * x * (1.0 + t), {"x": x, "tanh": t}


def gelu_tanh_backward(dy, cache):
    """Product rule on ``0.5 x (1 + t)``, with ``dt/dx = (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)``."""
    dy = _checked_upstream("gelu_tanh_backward", dy, cache)
    x, t = cache["x"], cache["tanh"]
    dt_dx = (1.0 - t**2) * SQRT_2_OVER_PI * (1.0 + 3.0 * GELU_CUBIC * x**2)
    return dy * (0.5 * (1.0 + t) + 0.5 * x * dt_dx)


def gelu_erf_forward(x):
    """Exact GELU: ``x * Phi(x)`` with ``Phi(x) = 0.5 (1 + erf(x / sqrt 2))``; returns ``(y, cache)``."""
    x = _checked_input("gelu_erf_forward", x)  # (...)
    cdf = 0.5 * (1.0 + _erf(x / math.sqrt(2.0))).astype(x.dtype)  # (...)
    return x * cdf, {"x": x, "cdf": cdf}


def gelu_erf_backward(dy, cache):
    """``d/dx [x Phi(x)] = Phi(x) + x phi(x)``, phi the standard normal density."""
    dy = _checked_upstream("gelu_erf_backward", dy, cache)
    x = cache["x"]
    pdf = np.exp(-0.5 * x**2) / math.sqrt(2.0 * math.pi)
    return dy * (cache["cdf"] + x * pdf)


# The activations a model config may name: "gelu" is GPT-2's tanh form.
ACTIVATIONS = {
    "relu": (relu_forward, relu_backward),
    "gelu": (gelu_tanh_forward, gelu_tanh_backward),
}
