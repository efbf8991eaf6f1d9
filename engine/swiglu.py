"""The SwiGLU feed-forward (Shazeer 2020, used by Llama): a gated MLP with three matrices and no biases.

``y = (silu(x W_gate) * (x W_up)) W_down`` with ``silu(g) = g * sigmoid(g)``: one projection decides, channel by
channel, how much of the other passes. Three d x F matrices instead of GPT-2's two d x F, so a SwiGLU of width
``2/3 * F`` has the parameters of a GELU MLP of width F (Llama's convention, see :func:`matched_width`).
"""
import numpy as np

from .errors import ShapeError, as_float_array, check_finite, check_ndim, check_shape


def sigmoid(g):
    """``1 / (1 + exp(-g))`` written as ``exp(-log(1 + exp(-g)))`` so no exponential overflows."""
    return np.exp(-np.logaddexp(0.0, -g))


def matched_width(ff_dim, multiple_of=1):
    """The SwiGLU width with about the parameters of a GELU MLP of width ``ff_dim``: ``2/3 * ff_dim`` (3 d F' = 2 d F),
    rounded up to a multiple of ``multiple_of`` as Llama does (256 there, to suit the hardware)."""
    width = int(2 * ff_dim / 3)
    return multiple_of * -(-width // multiple_of)


def swiglu_forward(x, w_gate, w_up, w_down):
    """``x (..., d)`` through the gated feed-forward; ``w_gate``, ``w_up`` ``(d, F)``, ``w_down`` ``(F, d)``."""
    x = as_float_array("swiglu_forward", "x", x)  # (..., d)
    w_gate, w_up, w_down = (as_float_array("swiglu_forward", name, w)
                            for name, w in (("w_gate", w_gate), ("w_up", w_up), ("w_down", w_down)))
    check_ndim("swiglu_forward", "w_gate", w_gate, 2)
    if x.ndim < 1 or x.shape[-1] != w_gate.shape[0]:
        raise ShapeError(f"swiglu_forward: x has shape {x.shape} but w_gate has shape {w_gate.shape}: "
                         f"the last axis of x must equal the rows of w_gate")
    check_shape("swiglu_forward", "w_up", w_up, w_gate.shape)
    check_shape("swiglu_forward", "w_down", w_down, w_gate.shape[::-1])
    for name, array in (("x", x), ("w_gate", w_gate), ("w_up", w_up), ("w_down", w_down)):
        check_finite("swiglu_forward", name, array)
    gate = x @ w_gate  # (..., F)
    up = x @ w_up  # (..., F)
    s = sigmoid(gate)  # (..., F)
    act = gate * s  # (..., F): silu of the gate
    hidden = act * up  # (..., F)
    y = hidden @ w_down  # (..., d)
    return y, {"x": x, "w_gate": w_gate, "w_up": w_up, "w_down": w_down, "gate": gate, "up": up, "sigmoid": s,
               "act": act, "hidden": hidden}


def swiglu_backward(dy, cache):
    """Return ``(dx, dw_gate, dw_up, dw_down)``; x feeds both the gate and the up projection, so its gradients add."""
    x, w_gate, w_up, w_down = cache["x"], cache["w_gate"], cache["w_up"], cache["w_down"]
    dy = as_float_array("swiglu_backward", "dy", dy)
    check_shape("swiglu_backward", "dy", dy, x.shape)
    d, F = w_gate.shape
    x2, dy2 = x.reshape(-1, d), dy.reshape(-1, d)  # (N, d): every leading position is one more example
    dhidden = dy2 @ w_down.T  # (N, F)
    dw_down = cache["hidden"].reshape(-1, F).T @ dy2  # (F, d)
    dup = dhidden * cache["act"].reshape(-1, F)  # (N, F)
    gate, s = cache["gate"].reshape(-1, F), cache["sigmoid"].reshape(-1, F)
    dgate = dhidden * cache["up"].reshape(-1, F) * s * (1.0 + gate * (1.0 - s))  # silu'(g) = s (1 + g (1 - s))
    dx = dgate @ w_gate.T + dup @ w_up.T  # (N, d)
    return dx.reshape(x.shape), x2.T @ dgate, x2.T @ dup, dw_down
