"""Widget kind ``linear``: Y = X @ W + b and its backward, for a reader-sized X (T, a), W (a, c), b (c,)."""
from .. import linear
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, layer_gradient_gap


def compute(X, W, b, dY):
    XW = X @ W  # (T, c): shown before the bias so the broadcast of b is visible
    Y, cache = linear.linear_forward(X, W, b)  # (T, c)
    dX, dW, db = linear.linear_backward(dY, cache)  # (T, a), (a, c), (c,)

    gap = layer_gradient_gap(linear.linear_forward, {"X": X, "W": W, "b": b}, dY, {"X": dX, "W": dW, "b": db})

    terms = " + ".join(f"{format_compact(x)} × {format_compact(w)}" for x, w in zip(X[0], W[:, 0]))
    arithmetic = (f"Y[t0, j0] = {terms} + {format_compact(b[0])} = {format_number(Y[0, 0])}")
    shapes = (f"{X.shape} @ {W.shape} → {XW.shape}: each token's {X.shape[1]} features meet the {W.shape[0]} rows "
              f"of W, and every one of the {X.shape[0]} tokens comes out with {W.shape[1]} features.")
    return Result(
        blocks=(
            Block("XW", "X @ W", XW, ("T", "c"), "step"),
            Block("Y", "Y = X @ W + b", Y, ("T", "c")),
            Block("dX", "dX = dY @ W.T", dX, ("T", "a"), "backward"),
            Block("dW", "dW = X.T @ dY", dW, ("a", "c"), "backward"),
            Block("db", "db = dY.sum(axis=0)", db, ("c",), "backward"),
        ),
        arithmetic=arithmetic, gradient_gap=gap, notes=(shapes,))


KIND = Kind(
    name="linear",
    title="X @ W + b, and its backward",
    description="Edit X, W, b or the upstream gradient dY; adding a column to X adds a row to W.",
    dims=(Dim("T", "t"), Dim("a", "k"), Dim("c", "j")),
    inputs=(
        Operand("X", "Input, one row per token", ("T", "a"), [[1, 2], [0, 1]]),
        Operand("W", "Weights", ("a", "c"), [[1, 0, 2], [-1, 1, 0]]),
        Operand("b", "Bias, added to every row", ("c",), [0, 1, -1]),
        Operand("dY", "Gradient of the loss with respect to Y", ("T", "c"), [[1, 0, 1], [0, 2, -1]]),
    ),
    compute=compute,
)
