"""Widget kind ``gradcheck``: LayerNorm's backward against central differences, entry by entry, for a step h the
reader chooses; the error across step sizes in float64 and float32; and what a broken backward scores."""
from functools import lru_cache

import numpy as np

from .. import norms
from ..gradcheck import check_layer, numerical_gradient, relative_error
from .fmt import format_number
from .kind import Block, Dim, Kind, Operand, Result
from .svg import line_chart

EPS = 1e-5
SWEEP_EXPONENTS = np.arange(1, 13)  # h = 10^-k for k = 1 ... 12


def _loss(x, gamma, beta, R):
    """``sum(y * R)``: a scalar whose gradient on y is exactly R."""
    return lambda: float(np.sum(norms.layernorm_forward(x, gamma, beta, EPS)[0] * R))


def _relative_error_of_dx(x, gamma, beta, dx, R, h, dtype):
    """Relative error of the formula's dx against central differences computed entirely in ``dtype``."""
    xs, gs, bs, Rs = (a.astype(dtype) for a in (x, gamma, beta, R))
    return relative_error(dx, numerical_gradient(_loss(xs, gs, bs, Rs), xs, h))


@lru_cache(maxsize=8)
def error_sweep(x_entries, gamma, beta, x_shape):
    """(dtype name, relative error of dx for each h = 10^-k) in float64 and float32, for the inputs given as tuples
    (hashable). Memoised: it does not depend on the reader's h, and an edit of h should not redo 24 gradients."""
    x, gamma, beta = np.reshape(x_entries, x_shape), np.array(gamma), np.array(beta)  # (T, d), (d,), (d,)
    _, cache = norms.layernorm_forward(x, gamma, beta, EPS)
    R = np.random.default_rng(0).standard_normal(x.shape)  # (T, d), the loss weights compute uses
    dx = norms.layernorm_backward(R, cache)[0]  # (T, d)
    return tuple((dtype_name, [_relative_error_of_dx(x, gamma, beta, dx, R, 10.0**-k, dtype) for k in SWEEP_EXPONENTS])
                 for dtype_name, dtype in (("float64", np.float64), ("float32", np.float32)))


def compute(x, gamma, beta, h):
    h = float(h)
    y, cache = norms.layernorm_forward(x, gamma, beta, EPS)  # (T, d)
    R = np.random.default_rng(0).standard_normal(y.shape)  # (T, d), fixed weights of the scalar loss
    dx, dgamma, dbeta = norms.layernorm_backward(R, cache)  # (T, d), (d,), (d,)
    loss = _loss(x, gamma, beta, R)
    numeric = {name: numerical_gradient(loss, array, h) for name, array in (("x", x), ("gamma", gamma), ("beta", beta))}
    analytic = {"x": dx, "gamma": dgamma, "beta": dbeta}
    gap = max(float(np.max(np.abs(analytic[n] - numeric[n]))) for n in analytic)
    errors = check_layer(norms.layernorm_forward, norms.layernorm_backward,
                         {"x": x, "gamma": gamma, "beta": beta}, ("x", "gamma", "beta"), h=h)

    # A deliberately broken copy of the backward: the mean(g) term left out.
    g, x_hat = gamma * R, cache["x_hat"]  # (T, d)
    dx_broken = (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * cache["rstd"]  # (T, d)

    sweep = error_sweep(*(tuple(np.ravel(a)) for a in (x, gamma, beta)), x.shape)
    plot = line_chart([(name, SWEEP_EXPONENTS, errs) for name, errs in sweep],
                      x_label="k, for the step h = 10^-k", y_label="relative error of dx", log_y=True)
    best = {name: SWEEP_EXPONENTS[int(np.argmin(errs))] for name, errs in sweep}
    notes = (
        "Relative errors with this h: " + ", ".join(f"d{name} {e:.1e}" for name, e in errors.items()) + ".",
        f"Smallest relative error of dx over the sweep: at h = 1e-{best['float64']} in float64, "
        f"at h = 1e-{best['float32']} in float32.",
        f"A backward that forgets the mean(g) term scores a relative error of {relative_error(dx_broken, numeric['x']):.1e}.",
    )
    arithmetic = (f"dx[t0, i0] by central differences: (L(x + h) - L(x - h)) / 2h with h = {h:g} gives "
                  f"{format_number(numeric['x'][0, 0])}; the formula gives {format_number(dx[0, 0])}; "
                  f"they differ by {abs(numeric['x'][0, 0] - dx[0, 0]):.1e}")
    return Result(
        blocks=(
            Block("y", "y = LayerNorm(x)", y, ("T", "d")),
            Block("R", "R: fixed random weights of the loss L = sum(y * R)", R, ("T", "d"), "step"),
            Block("dx", "dx from the backward formula", dx, ("T", "d"), "backward"),
            Block("dx_numeric", "dx from central differences", numeric["x"], ("T", "d"), "backward"),
            Block("dgamma", "dgamma from the backward formula", dgamma, ("d",), "backward"),
            Block("dgamma_numeric", "dgamma from central differences", numeric["gamma"], ("d",), "backward"),
            Block("dbeta", "dbeta from the backward formula", dbeta, ("d",), "backward"),
            Block("dbeta_numeric", "dbeta from central differences", numeric["beta"], ("d",), "backward"),
        ),
        arithmetic=arithmetic, gradient_gap=gap, notes=notes,
        plots=(("How the error depends on the step h", plot),))


KIND = Kind(
    name="gradcheck",
    title="Checking LayerNorm's backward with central differences",
    description="Edit x, gamma, beta or the step h; both gradients are computed and compared entry by entry.",
    dims=(Dim("T", "t", max=4), Dim("d", "i", min=2, max=6)),
    inputs=(
        Operand("x", "Input, one row per token", ("T", "d"), [[1, -2, 0.5], [3, 1, -1]]),
        Operand("gamma", "Gain, one per feature", ("d",), [1.5, -0.5, 2]),
        Operand("beta", "Shift, one per feature", ("d",), [0, 0.1, -0.2]),
        Operand("h", "Step of the central differences", (), 1e-5, bounds=(1e-12, 1)),
    ),
    compute=compute,
)
