"""Widget kind ``layernorm``: every row normalised to mean 0 and variance 1, then scaled and shifted; and backward."""
from .. import norms
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, layer_gradient_gap

EPS = 1e-5  # the engine's default, as in PyTorch


def compute(x, gamma, beta, dy):
    y, cache = norms.layernorm_forward(x, gamma, beta, EPS)  # (T, d)
    dx, dgamma, dbeta = norms.layernorm_backward(dy, cache)  # (T, d), (d,), (d,)

    gap = layer_gradient_gap(norms.layernorm_forward, {"x": x, "gamma": gamma, "beta": beta, "eps": EPS}, dy,
                      {"x": dx, "gamma": dgamma, "beta": dbeta})

    mean, var = cache["mean"][:, 0], cache["var"][:, 0]  # (T,), (T,)
    arithmetic = (f"y[t0, i0] = {format_compact(gamma[0])} × ({format_compact(x[0, 0])} - "
                  f"{format_compact(mean[0])}) / √({format_compact(var[0])} + {EPS:g}) + {format_compact(beta[0])}"
                  f" = {format_number(y[0, 0])}")
    return Result(
        blocks=(
            Block("mean", "mean of each row", mean, ("T",), "step"),
            Block("var", "variance of each row (divides by d)", var, ("T",), "step"),
            Block("x_hat", "x_hat = (x - mean) / √(var + ε)", cache["x_hat"], ("T", "d"), "step"),
            Block("y", "y = gamma * x_hat + beta", y, ("T", "d")),
            Block("dx", "dx", dx, ("T", "d"), "backward"),
            Block("dgamma", "dgamma = (dy * x_hat).sum(axis=0)", dgamma, ("d",), "backward"),
            Block("dbeta", "dbeta = dy.sum(axis=0)", dbeta, ("d",), "backward"),
        ),
        arithmetic=arithmetic, gradient_gap=gap,
        notes=("Each row of dx sums to 0: shifting a whole row does not change x_hat.",))


KIND = Kind(
    name="layernorm",
    title="LayerNorm, forward and backward",
    description="Edit x, gamma, beta or the upstream gradient dy; every row is normalised on its own.",
    dims=(Dim("T", "t"), Dim("d", "i", min=2)),
    inputs=(
        Operand("x", "Input, one row per token", ("T", "d"), [[1, 2, 3, 4], [10, 20, 30, 40]]),
        Operand("gamma", "Gain, one per feature", ("d",), [2, 2, 2, 2]),
        Operand("beta", "Shift, one per feature", ("d",), [1, 1, 1, 1]),
        Operand("dy", "Gradient of the loss with respect to y", ("T", "d"), [[1, 0, 0, 0], [0, 1, -1, 2]]),
    ),
    compute=compute,
)
