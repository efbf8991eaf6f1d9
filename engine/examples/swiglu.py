"""Widget kind ``swiglu``: the gated feed-forward on a few rows, every intermediate, the backward, and the GELU MLP
with the same number of matrix entries beside it."""
import numpy as np

from ..swiglu import sigmoid, swiglu_backward, swiglu_forward
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, layer_gradient_gap
from .svg import line_chart

GATES = np.linspace(-6.0, 6.0, 49)  # (S,) gate values for the picture


def _gate_picture():
    """silu(g) = g sigmoid(g) against ReLU: smooth, slightly negative below 0, close to g above."""
    return line_chart([("silu(g)", GATES, GATES * sigmoid(GATES)), ("max(0, g)", GATES, np.maximum(GATES, 0.0))],
                      x_label="gate g", y_label="activation")


def compute(x, w_gate, w_up, w_down, dy):
    y, cache = swiglu_forward(x, w_gate, w_up, w_down)  # (T, d)
    dx, dw_gate, dw_up, dw_down = swiglu_backward(dy, cache)
    d, F = w_gate.shape
    gate, up, act = cache["gate"], cache["up"], cache["act"]  # (T, F) each
    arithmetic = (f"hidden[t0, f0] = silu({format_compact(gate[0, 0])}) × {format_compact(up[0, 0])} = "
                  f"{format_compact(gate[0, 0])} × σ({format_compact(gate[0, 0])}) × {format_compact(up[0, 0])} = "
                  f"{format_number(cache['hidden'][0, 0])}")
    mlp_width = 3 * F / 2
    notes = (
        f"Matrix entries: 3 d F = {3 * d * F}. A GELU MLP (two matrices) of width {format_compact(mlp_width)} has "
        f"2 d × {format_compact(mlp_width)} = {format_compact(2 * d * mlp_width)}: the same.",
        "Where a gate entry is very negative, silu is near 0 and that hidden channel is closed whatever up says.",
    )
    inputs = {"x": x, "w_gate": w_gate, "w_up": w_up, "w_down": w_down}
    return Result(
        blocks=(
            Block("gate", "gate = x @ w_gate", gate, ("T", "F"), "step"),
            Block("up", "up = x @ w_up", up, ("T", "F"), "step"),
            Block("act", "silu(gate) = gate * sigmoid(gate)", act, ("T", "F"), "step"),
            Block("hidden", "hidden = silu(gate) * up", cache["hidden"], ("T", "F"), "step"),
            Block("y", "y = hidden @ w_down", y, ("T", "d")),
            Block("dx", "dx = dgate @ w_gate.T + dup @ w_up.T", dx, ("T", "d"), "backward"),
            Block("dw_gate", "dw_gate = x.T @ dgate", dw_gate, ("d", "F"), "backward"),
            Block("dw_up", "dw_up = x.T @ (dhidden * silu(gate))", dw_up, ("d", "F"), "backward"),
            Block("dw_down", "dw_down = hidden.T @ dy", dw_down, ("F", "d"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=layer_gradient_gap(swiglu_forward, inputs, dy,
                                 {"x": dx, "w_gate": dw_gate, "w_up": dw_up, "w_down": dw_down}),
        notes=notes,
        plots=(("The gate's activation, silu, beside ReLU", _gate_picture()),),
    )


KIND = Kind(
    name="swiglu",
    title="SwiGLU, forward and backward",
    description="Rows are tokens. Edit x, the three matrices or the upstream gradient dy.",
    dims=(Dim("T", "t", 1, 4), Dim("d", "i", 1, 4), Dim("F", "f", 1, 6)),
    inputs=(
        Operand("x", "input rows", ("T", "d"), [[1, -1], [0.5, 2]]),
        Operand("w_gate", "gate projection", ("d", "F"), [[1, 0, -2], [0, 1, 1]]),
        Operand("w_up", "up projection", ("d", "F"), [[2, 1, 0], [0, 1, 1]]),
        Operand("w_down", "down projection", ("F", "d"), [[1, 0], [0, 1], [1, 1]]),
        Operand("dy", "gradient of the loss with respect to y", ("T", "d"), [[1, 0], [0, 1]]),
    ),
    compute=compute,
)
