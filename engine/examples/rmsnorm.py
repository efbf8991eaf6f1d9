"""Widget kind ``rmsnorm``: each row divided by its root mean square and scaled by gamma, LayerNorm beside it, and
the backward, with two common mistakes measured live (eps outside the root, r treated as a constant)."""
import numpy as np

from .. import norms
from ..gradcheck import numerical_gradient
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap
from .svg import line_chart

EPS = 1e-5  # the engine's default
SHIFTS = np.linspace(-4.0, 4.0, 33)  # (S,) amounts added to every entry of the first row for the picture


def _loss(x, gamma, dy):
    """``sum(y * dy)``: its gradient on y is exactly dy, so finite differences of it check the backward."""
    return lambda: float((norms.rmsnorm_forward(x, gamma, EPS)[0] * dy).sum())


def _first_entry(x, gamma, ms, y):
    squares = " + ".join(f"{format_compact(v)}²" for v in x[0])
    return (f"Row t0: ms = ({squares}) / {x.shape[1]} = {format_compact(ms[0])}; y[t0, i0] = "
            f"{format_compact(gamma[0])} × {format_compact(x[0, 0])} / √({format_compact(ms[0])} + {EPS:g}) "
            f"= {format_number(y[0, 0])}")


def _shift_picture(x, gamma):
    """Entry i0 of each norm's output as the same amount c is added to every entry of row t0: LayerNorm is blind to
    the shift (the mean absorbs it), RMSNorm is not."""
    shifted = x[0] + SHIFTS[:, None]  # (S, d)
    rms_y, _ = norms.rmsnorm_forward(shifted, gamma, EPS)  # (S, d)
    ln_y, _ = norms.layernorm_forward(shifted, gamma, np.zeros_like(gamma), EPS)  # (S, d)
    return line_chart([("RMSNorm", SHIFTS, rms_y[:, 0]), ("LayerNorm", SHIFTS, ln_y[:, 0])],
                      x_label="c, added to every entry of row t0", y_label="y[t0, i0]")


def compute(x, gamma, dy):
    y, cache = norms.rmsnorm_forward(x, gamma, EPS)  # (T, d)
    dx, dgamma = norms.rmsnorm_backward(dy, cache)  # (T, d), (d,)
    loss = _loss(x, gamma, dy)
    gap = gradient_gap(loss, {"x": x, "gamma": gamma}, {"x": dx, "gamma": dgamma})
    ms, rrms, x_hat = cache["ms"][:, 0], cache["rrms"][:, 0], cache["x_hat"]  # (T,), (T,), (T, d)
    g = gamma * dy  # (T, d)
    g_along_x_hat = (g * x_hat).mean(axis=-1)  # (T,)
    y_layernorm, _ = norms.layernorm_forward(x, gamma, np.zeros_like(gamma), EPS)  # (T, d), same gain, no shift

    # Two mistakes, measured against the real thing for the rows typed in.
    y_eps_outside = gamma * x / (np.sqrt(ms)[:, None] + EPS)  # (T, d)
    dx_constant_r = g * rrms[:, None]  # (T, d): forgets that r depends on x
    constant_r_gap = float(np.max(np.abs(dx_constant_r - numerical_gradient(loss, x))))
    notes = (
        f"Σ dx · x per row (0 up to eps: scaling a row does not change y): "
        f"{', '.join(format_number(v) for v in (dx * x).sum(axis=-1))}.",
        f"Mistake, ε outside the root, x / (√ms + ε): y changes by up to "
        f"{np.max(np.abs(y_eps_outside - y)):.1e} for these rows.",
        f"Mistake, r treated as a constant, dx = gamma * dy * r: largest gap against central differences "
        f"{constant_r_gap:.1e}.",
    )
    return Result(
        blocks=(
            Block("ms", "ms = mean of x² over each row", ms, ("T",), "step"),
            Block("rms", "RMS = √(ms + ε)", 1 / rrms, ("T",), "step"),
            Block("x_hat", "x_hat = x / RMS", x_hat, ("T", "d"), "step"),
            Block("y", "y = gamma * x_hat", y, ("T", "d")),
            Block("y_layernorm", "LayerNorm of the same rows (same gamma, beta = 0)", y_layernorm, ("T", "d")),
            Block("g", "g = gamma * dy", g, ("T", "d"), "backward"),
            Block("g_x_hat", "mean(g * x_hat) over each row", g_along_x_hat, ("T",), "backward"),
            Block("dx", "dx = (g - x_hat * mean(g * x_hat)) / RMS", dx, ("T", "d"), "backward"),
            Block("dgamma", "dgamma = (dy * x_hat).sum(axis=0)", dgamma, ("d",), "backward"),
        ),
        arithmetic=_first_entry(x, gamma, ms, y), gradient_gap=gap, notes=notes,
        plots=(("Row t0 shifted by c: what each norm outputs for its entry i0", _shift_picture(x, gamma)),))


KIND = Kind(
    name="rmsnorm",
    title="RMSNorm, forward and backward, with LayerNorm beside it",
    description="Edit x, gamma or the upstream gradient dy; every row is divided by its own root mean square.",
    dims=(Dim("T", "t"), Dim("d", "i", min=2)),
    inputs=(
        Operand("x", "Input, one row per token", ("T", "d"), [[1, 2, 3, 4], [-3, -1, 1, 3]]),
        Operand("gamma", "Gain, one per feature", ("d",), [1, 1, 1, 1]),
        Operand("dy", "Gradient of the loss with respect to y", ("T", "d"), [[1, 0, -1, 2], [0.5, 1, 0, -1]]),
    ),
    compute=compute,
)
