"""Widget kind ``softmax``: max-subtracted softmax of each row and its backward, beside the naive overflowing one."""
import numpy as np

from .. import softmax
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, layer_gradient_gap
from .svg import heat_map

EXP_OVERFLOW = np.log(np.finfo(np.float64).max)  # exp of anything larger is inf


def naive_softmax(x):
    """The common mistake: exp without the max shift. Overflow gives inf / inf = nan, returned as is for display."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)  # (T, n)
        return e / e.sum(axis=-1, keepdims=True)


def jacobian(p_row):
    """``d p_i / d x_j = p_i (delta_ij - p_j)`` for one row of probabilities, as an (n, n) matrix."""
    return np.diag(p_row) - np.outer(p_row, p_row)  # (n, n)


def compute(x, dp):
    p, cache = softmax.softmax_forward(x)  # (T, n)
    dx = softmax.softmax_backward(dp, cache)  # (T, n)
    row_max = x.max(axis=-1)  # (T,)
    e = np.exp(x - row_max[:, None])  # (T, n): every entry in (0, 1], the largest exactly 1
    total = e.sum(axis=-1)  # (T,)
    weighted = (dp * p).sum(axis=-1)  # (T,) the sum the backward subtracts from dp
    gap = layer_gradient_gap(softmax.softmax_forward, {"x": x}, dp, {"x": dx})
    arithmetic = (f"p[t0, j0] = exp({format_compact(x[0, 0])} - {format_compact(row_max[0])}) / "
                  f"{format_number(total[0])} = {format_number(e[0, 0])} / {format_number(total[0])} = "
                  f"{format_number(p[0, 0])}")
    labels = [f"p{j}" for j in range(x.shape[1])]
    return Result(
        blocks=(
            Block("row_max", "m = x.max(axis=-1)", row_max, ("T",), "step"),
            Block("shifted", "x - m: every entry ≤ 0", x - row_max[:, None], ("T", "n"), "step"),
            Block("e", "e = exp(x - m)", e, ("T", "n"), "step"),
            Block("total", "e.sum(axis=-1)", total, ("T",), "step"),
            Block("p", "p = e / e.sum(axis=-1)", p, ("T", "n")),
            Block("naive", "mistake: exp(x) / exp(x).sum(), no max shift", naive_softmax(x), ("T", "n")),
            Block("weighted", "(dp * p).sum(axis=-1)", weighted, ("T",), "backward"),
            Block("dx", "dx = p * (dp - (dp * p).sum(axis=-1))", dx, ("T", "n"), "backward"),
            Block("dx_diagonal", "mistake: dp * p * (1 - p), the Jacobian's diagonal only", dp * p * (1 - p),
                  ("T", "n"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=gap,
        notes=("Each row of p adds up to 1 and each row of dx adds up to 0. The naive softmax breaks (nan) as soon "
               f"as a score passes {format_compact(EXP_OVERFLOW, 1)}, where exp overflows float64.",),
        plots=(("Jacobian of row t0: d p_i / d x_j = p_i (δ_ij − p_j)",
                heat_map(jacobian(p[0]), labels, [f"x{j}" for j in range(x.shape[1])],
                         "Jacobian of the first row's softmax")),),
    )


KIND = Kind(
    name="softmax",
    title="Softmax of each row, forward and backward",
    description="Edit the scores x or the upstream gradient dp; each row becomes probabilities on its own.",
    dims=(Dim("T", "t"), Dim("n", "j", min=2)),
    inputs=(
        Operand("x", "Scores, one row per query or position", ("T", "n"), [[1, 2, 3], [1000, 1001, 1002]]),
        Operand("dp", "Gradient of the loss with respect to p", ("T", "n"), [[1, -1, 0.5], [0, 0, 1]]),
    ),
    compute=compute,
)
