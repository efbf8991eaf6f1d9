"""Widget kind ``residual``: y = x + f(x) with a linear sub-layer f(x) = x @ W, forward and backward.

The backward shows the two paths that reach x (the skip and the branch through W) and their sum, next to the
mistake of assigning instead of adding. Two pictures follow a random signal and its gradient through a stack of
``layers`` random linear sub-layers, plain, with residuals, post-LN and pre-LN, all built from engine functions.
"""
from functools import lru_cache

import numpy as np

from ..errors import LayerwiseError
from ..linear import linear_backward, linear_forward
from ..norms import layernorm_backward, layernorm_forward
from ..residual import residual_backward, residual_forward
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap
from .svg import line_chart

STACK_WIDTH = 64  # channels of the random signal in the depth pictures
STACK_ROWS = 32   # positions: enough rows for a stable standard deviation
MAX_LAYERS = 48
VARIANTS = ("plain f(x)", "x + f(x)", "post-LN", "pre-LN")


def _layer_forward(variant, x, W, ones, zeros):
    """One layer of ``variant`` on x (N, w); returns (new x, the caches its backward needs)."""
    if variant == "plain f(x)":
        return linear_forward(x, W, zeros)
    if variant == "x + f(x)":
        fx, f_cache = linear_forward(x, W, zeros)
        y, r_cache = residual_forward(x, fx)
        return y, (f_cache, r_cache)
    if variant == "post-LN":
        fx, f_cache = linear_forward(x, W, zeros)
        s, r_cache = residual_forward(x, fx)
        y, n_cache = layernorm_forward(s, ones, zeros)
        return y, (f_cache, r_cache, n_cache)
    h, n_cache = layernorm_forward(x, ones, zeros)  # pre-LN: the norm sits on the branch only
    fx, f_cache = linear_forward(h, W, zeros)
    y, r_cache = residual_forward(x, fx)
    return y, (n_cache, f_cache, r_cache)


def _layer_backward(variant, dy, cache):
    """The layer's backward; wherever x feeds two paths the two gradients are added."""
    if variant == "plain f(x)":
        return linear_backward(dy, cache)[0]
    if variant == "x + f(x)":
        f_cache, r_cache = cache
        dx_skip, dfx = residual_backward(dy, r_cache)
        return dx_skip + linear_backward(dfx, f_cache)[0]
    if variant == "post-LN":
        f_cache, r_cache, n_cache = cache
        ds = layernorm_backward(dy, n_cache)[0]
        dx_skip, dfx = residual_backward(ds, r_cache)
        return dx_skip + linear_backward(dfx, f_cache)[0]
    n_cache, f_cache, r_cache = cache
    dx_skip, dfx = residual_backward(dy, r_cache)
    return dx_skip + layernorm_backward(linear_backward(dfx, f_cache)[0], n_cache)[0]


@lru_cache(maxsize=16)
def signal_through_depth(gain, layers, seed):
    """Std of the signal after each layer and of the gradient reaching each layer's input, per variant.

    Memoised (callers only read the result): editing the block's x, W or dy leaves the pictures' stack alone.

    Every sub-layer is x @ W with W ~ N(0, gain^2 / width), so on its own it multiplies the signal's size by about
    ``gain``. Returns ({variant: (layers + 1,) stds of x_0..x_L}, {variant: (layers + 1,) stds of dx_0..dx_L}).
    """
    rng = np.random.default_rng(seed)
    x0 = rng.standard_normal((STACK_ROWS, STACK_WIDTH))  # (N, w)
    weights = rng.normal(0.0, gain / np.sqrt(STACK_WIDTH), (layers, STACK_WIDTH, STACK_WIDTH))  # (L, w, w)
    dy = rng.standard_normal((STACK_ROWS, STACK_WIDTH))  # (N, w): gradient arriving from above the stack
    ones, zeros = np.ones(STACK_WIDTH), np.zeros(STACK_WIDTH)
    signal, gradient = {}, {}
    for variant in VARIANTS:
        x, caches, sizes = x0, [], [x0.std()]
        for W in weights:
            x, cache = _layer_forward(variant, x, W, ones, zeros)
            caches.append(cache)
            sizes.append(x.std())
        grad, grad_sizes = dy, [dy.std()]
        for cache in reversed(caches):
            grad = _layer_backward(variant, grad, cache)
            grad_sizes.append(grad.std())
        signal[variant] = np.array(sizes)
        gradient[variant] = np.array(grad_sizes[::-1])  # index l: the gradient on x_l
    return signal, gradient


def compute(x, W, dy, gain, layers, seed):
    layers, seed = int(layers), int(seed)
    if not 1 <= layers <= MAX_LAYERS:
        raise LayerwiseError(f"residual example: layers must lie between 1 and {MAX_LAYERS}, got {layers}")
    if seed < 0:
        raise LayerwiseError(f"residual example: seed must be 0 or more, got {seed}")
    fx, f_cache = linear_forward(x, W, np.zeros(W.shape[1]))  # (d,)
    y, r_cache = residual_forward(x, fx)  # (d,)
    dx_skip, dfx = residual_backward(dy, r_cache)  # (d,) each
    dx_branch, dW, _ = linear_backward(dfx, f_cache)  # (d,), (d, d)
    dx = dx_skip + dx_branch  # x feeds both paths: the gradients add

    def loss():
        return float(np.sum((x + x @ W) * dy))

    gap = gradient_gap(loss, {"x": x, "W": W}, {"x": dx, "W": dW})

    arithmetic = (f"dx[j0] = dy (skip) + (dy @ W.T) (through f) = {format_compact(dx_skip[0])} + "
                  f"{format_compact(dx_branch[0])} = {format_number(dx[0])}")
    signal, gradient = signal_through_depth(float(gain), layers, seed)
    depth = np.arange(layers + 1)
    notes = (
        f"Mistake: writing dx = (dy @ W.T) after dx = dy keeps only the branch: dx[j0] would be "
        f"{format_compact(dx_branch[0])} instead of {format_compact(dx[0])}.",
        f"After {layers} layers with gain {format_compact(gain)}, the signal's standard deviation is: "
        + "; ".join(f"{v} {format_compact(signal[v][-1])}" for v in VARIANTS) + ".",
        "Gradient reaching the input (standard deviation, starting from 1 at the top): "
        + "; ".join(f"{v} {format_compact(gradient[v][0])}" for v in VARIANTS) + ".",
    )
    return Result(
        blocks=(
            Block("fx", "f(x) = x @ W", fx, ("d",), "step"),
            Block("y", "y = x + f(x)", y, ("d",)),
            Block("dx_skip", "skip path: dy", dx_skip, ("d",), "backward"),
            Block("dx_branch", "through f: dy @ W.T", dx_branch, ("d",), "backward"),
            Block("dx", "dx = skip + through f", dx, ("d",), "backward"),
            Block("dW", "dW = outer(x, dy)", dW, ("d", "d"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=gap,
        notes=notes,
        plots=(
            ("Signal size through the stack", line_chart(
                [(v, depth, signal[v]) for v in VARIANTS], x_label="layer", y_label="std of x", log_y=True)),
            ("Gradient size reaching each layer", line_chart(
                [(v, depth, gradient[v]) for v in VARIANTS], x_label="layer", y_label="std of dx", log_y=True)),
        ),
    )


KIND = Kind(
    name="residual",
    title="y = x + f(x), and its backward",
    description="f is a linear sub-layer x @ W. Gain, layers and seed drive the two pictures of a deep stack.",
    dims=(Dim("d", "j", 1, 6),),
    inputs=(
        Operand("x", "input of the block", ("d",), [1, -1]),
        Operand("W", "weights of the sub-layer f(x) = x @ W", ("d", "d"), [[0.5, 0], [0, 0.5]]),
        Operand("dy", "gradient of the loss on y", ("d",), [1, 1]),
        Operand("gain", "size factor of each random sub-layer in the pictures", (), 0.7, bounds=(0.01, 10)),
        Operand("layers", "number of layers in the pictures", (), 12, integer=True),
        Operand("seed", "seed of the random stack", (), 0, integer=True),
    ),
    compute=compute,
)
