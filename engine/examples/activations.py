"""Widget kind ``activations``: ReLU, exact GELU and GPT-2's tanh GELU on the same input, forward and backward."""
import numpy as np

from .. import activations
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap
from .svg import line_chart

CURVE_X = np.linspace(-4.0, 3.0, 141)  # (141,) where the plotted curves are sampled

PAIRS = {  # name -> (forward, backward), in the order the blocks are shown
    "relu": (activations.relu_forward, activations.relu_backward),
    "gelu_erf": (activations.gelu_erf_forward, activations.gelu_erf_backward),
    "gelu_tanh": (activations.gelu_tanh_forward, activations.gelu_tanh_backward),
}


def compute(x, dy):
    outputs, caches, grads = {}, {}, {}
    for name, (forward, backward) in PAIRS.items():
        outputs[name], caches[name] = forward(x)  # (T, F)
        grads[name] = backward(dy, caches[name])  # (T, F)
    t = caches["gelu_tanh"]["tanh"]  # (T, F)
    relu_backward_ge = dy * (x >= 0)  # (T, F) the ">= 0" mistake: differs only where x is exactly 0
    gap = max(gradient_gap(lambda f=forward: float((f(x)[0] * dy).sum()), {"x": x}, {"x": grads[name]})
              for name, (forward, _) in PAIRS.items())  # f=forward binds this pair's forward in the lambda
    return Result(
        blocks=(
            Block("mask", "1[x > 0], ReLU's mask", x > 0, ("T", "F"), "step"),
            Block("cdf", "Φ(x) = 0.5 (1 + erf(x / √2))", caches["gelu_erf"]["cdf"], ("T", "F"),
                  "step"),
            Block("t", "t = tanh(√(2/π) (x + 0.044715 x³))", t, ("T", "F"), "step"),
            Block("relu", "ReLU: max(0, x)", outputs["relu"], ("T", "F")),
            Block("gelu_erf", "exact GELU: x Φ(x)", outputs["gelu_erf"], ("T", "F")),
            Block("gelu_tanh", "tanh GELU (GPT-2): 0.5 x (1 + t)", outputs["gelu_tanh"], ("T", "F")),
            Block("tanh_minus_erf", "(tanh GELU − exact GELU) × 10⁴: the cost of mixing them up",
                  (outputs["gelu_tanh"] - outputs["gelu_erf"]) * 1e4, ("T", "F")),  # × 10⁴: visible at 4 decimals
            Block("dx_relu", "ReLU: dx = dy * (x > 0)", grads["relu"], ("T", "F"), "backward"),
            Block("dx_relu_ge", "mistake: dy * (x >= 0), differs only where x is exactly 0", relu_backward_ge,
                  ("T", "F"), "backward"),
            Block("dx_gelu_erf", "exact GELU: dx = dy * (Φ(x) + x φ(x))", grads["gelu_erf"], ("T", "F"),
                  "backward"),
            Block("dx_gelu_tanh", "tanh GELU: dx = dy * (0.5 (1 + t) + 0.5 x dt/dx)", grads["gelu_tanh"],
                  ("T", "F"), "backward"),
        ),
        arithmetic=_arithmetic(x[0, 0], t[0, 0], outputs["gelu_tanh"][0, 0]),
        gradient_gap=gap,
        notes=("The gradient check covers all three backwards. Type 0 into a cell of x to see it fail for ReLU: "
               "central differences at the corner give dy / 2, the average of the slopes 0 and 1.",),
        plots=_plots(),
    )


def _arithmetic(x, t, y):
    return (f"The tanh GELU at [t0, f0]: t = tanh({format_compact(activations.SQRT_2_OVER_PI)} × "
            f"({format_compact(x)} + {activations.GELU_CUBIC:g} × {format_compact(x)}³)) = {format_number(t)}, and "
            f"0.5 × {format_compact(x)} × (1 + {format_compact(t)}) = {format_number(y)}")


def _plots():
    curves = [(name, CURVE_X, forward(CURVE_X)[0]) for name, (forward, _) in PAIRS.items()]
    slopes = [(name, CURVE_X, backward(np.ones_like(CURVE_X), forward(CURVE_X)[1]))
              for name, (forward, backward) in PAIRS.items()]
    return (("The three curves", line_chart(curves, "x", "y")),
            ("Their slopes: what the backward multiplies dy by", line_chart(slopes, "x", "dy/dx")))


KIND = Kind(
    name="activations",
    title="ReLU and GELU, forward and backward",
    description="Edit x or the upstream gradient dy; every entry is transformed on its own.",
    dims=(Dim("T", "t"), Dim("F", "f")),
    inputs=(
        Operand("x", "Input: the first feed-forward layer's output", ("T", "F"),
                [[-2, -0.5, 0.5, 2], [-1, 0.25, 1, 3]]),
        Operand("dy", "Gradient of the loss with respect to the output", ("T", "F"),
                [[1, 1, 1, 1], [0.5, -1, 2, 1]]),
    ),
    compute=compute,
)
