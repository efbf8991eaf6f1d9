"""Initial weights: random, with a spread tied to the layer's size so signals neither explode nor vanish.

One linear layer multiplies the variance of its signal by ``n_in * Var(w)``; the schemes below choose Var(w) to
make that factor about 1 (Xavier for tanh-like units, He for ReLU), or use GPT-2's fixed N(0, 0.02^2) with the
projections that write into the residual stream shrunk by 1/sqrt(2L), because 2L of them are summed.
"""
import math

import numpy as np

from .activations import relu_forward
from .errors import LayerwiseError
from .linear import linear_forward

GPT2_STD = 0.02
SCHEMES = ("gpt2", "xavier", "he")


def _fans(where, shape):
    if len(shape) != 2 or min(shape) < 1:
        raise LayerwiseError(f"{where}: shape must be (n_in, n_out) with both >= 1, got {tuple(shape)}")
    return shape[0], shape[1]


def xavier_std(shape):
    """Glorot's standard deviation, ``sqrt(2 / (n_in + n_out))``: both Xavier schemes draw with this spread."""
    n_in, n_out = _fans("xavier_std", shape)
    return math.sqrt(2.0 / (n_in + n_out))


def xavier_uniform(shape, rng):
    """Glorot uniform: U(-a, a) with ``a = sqrt(6 / (n_in + n_out))``, so Var(w) = 2 / (n_in + n_out)."""
    n_in, n_out = _fans("xavier_uniform", shape)
    limit = math.sqrt(6.0 / (n_in + n_out))
    return rng.uniform(-limit, limit, size=shape)


def xavier_normal(shape, rng):
    """Glorot normal: N(0, 2 / (n_in + n_out))."""
    _fans("xavier_normal", shape)  # names this function in the message for a bad shape
    return rng.normal(0.0, xavier_std(shape), size=shape)


def he_normal(shape, rng):
    """He/Kaiming normal: N(0, 2 / n_in); the 2 makes up for the half of its inputs ReLU sets to zero."""
    n_in, _ = _fans("he_normal", shape)
    return rng.normal(0.0, math.sqrt(2.0 / n_in), size=shape)


def gpt2_std(num_layers=None):
    """0.02; with ``num_layers`` L given (a residual-writing projection) 0.02 / sqrt(2L), as 2L of them are summed."""
    return GPT2_STD if num_layers is None else GPT2_STD / math.sqrt(2 * num_layers)


def gpt2_normal(shape, rng, num_layers=None):
    """N(0, std^2) with the std of :func:`gpt2_std`."""
    return rng.normal(0.0, gpt2_std(num_layers), size=shape)


def init_weight(scheme, shape, rng, num_layers, residual=False):
    """A weight matrix by the named scheme; ``residual`` marks projections that write into the residual stream."""
    if scheme == "gpt2":
        return gpt2_normal(shape, rng, num_layers if residual else None)
    if scheme == "xavier":
        return xavier_uniform(shape, rng)
    if scheme == "he":
        return he_normal(shape, rng)
    raise LayerwiseError(f"init_weight: scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")


def signal_propagation(weight_std, num_layers=10, width=512, num_samples=1000, seed=0):
    """Push a random N(0, 1) input through ``num_layers`` of (matrix product, ReLU) with N(0, weight_std^2) weights.

    ``weight_std`` is a number, or ``"he"`` for sqrt(2 / width) or ``"xavier"`` for sqrt(1 / width).
    Returns the standard deviation of the activations after each layer, shape ``(num_layers,)``.
    """
    named = {"he": math.sqrt(2.0 / width), "xavier": math.sqrt(1.0 / width)}
    if isinstance(weight_std, str):
        if weight_std not in named:
            raise LayerwiseError(f"signal_propagation: weight_std must be a number, 'he' or 'xavier', "
                                 f"got {weight_std!r}")
        weight_std = named[weight_std]
    if not weight_std > 0:
        raise LayerwiseError(f"signal_propagation: weight_std must be > 0, got {weight_std}")
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((num_samples, width))  # (N, W)
    no_bias = np.zeros(width)
    stds = np.empty(num_layers)
    for layer in range(num_layers):  # each layer needs the previous one's output: a true sequence
        pre, _ = linear_forward(x, rng.normal(0.0, weight_std, size=(width, width)), no_bias)  # (N, W)
        x, _ = relu_forward(pre)  # (N, W)
        stds[layer] = x.std()
    return stds
