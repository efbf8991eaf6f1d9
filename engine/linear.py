"""Linear layer ``Y = X @ W + b``: every output is a weighted sum of the inputs plus a bias.

X may carry any leading axes (a batch, a sequence); W and b are shared across them, so their gradients sum over
every leading position.
"""
from .errors import ShapeError, as_float_array, check_finite, check_ndim, check_shape


def linear_forward(X, W, b):
    """``Y = X @ W + b`` with X ``(..., n_in)``, W ``(n_in, n_out)``, b ``(n_out,)``; returns ``(Y, cache)``."""
    X = as_float_array("linear_forward", "X", X)  # (..., n_in)
    W = as_float_array("linear_forward", "W", W)  # (n_in, n_out)
    b = as_float_array("linear_forward", "b", b)  # (n_out,)
    check_ndim("linear_forward", "W", W, 2)
    if X.ndim < 1 or X.shape[-1] != W.shape[0]:
        raise ShapeError(f"linear_forward: X has shape {X.shape} but W has shape {W.shape}: "
                         f"columns of X must equal rows of W")
    check_shape("linear_forward", "b", b, (W.shape[1],))
    for name, array in (("X", X), ("W", W), ("b", b)):
        check_finite("linear_forward", name, array)
    X2 = X.reshape(-1, W.shape[0])  # (N, n_in): NumPy runs one BLAS product for 2-D, a loop of them for 3-D
    Y = (X2 @ W + b).reshape(X.shape[:-1] + (W.shape[1],))  # (..., n_out)
    return Y, {"X": X, "W": W}


def linear_backward(dY, cache):
    """Return ``(dX, dW, db)`` for upstream ``dY (..., n_out)``: dX = dY W^T, dW = X^T dY, db = sum of dY."""
    X, W = cache["X"], cache["W"]  # (..., n_in), (n_in, n_out)
    dY = as_float_array("linear_backward", "dY", dY)
    check_shape("linear_backward", "dY", dY, X.shape[:-1] + (W.shape[1],))
    X2 = X.reshape(-1, W.shape[0])  # (N, n_in): every leading position is one more example
    dY2 = dY.reshape(-1, W.shape[1])  # (N, n_out)
    dX = (dY2 @ W.T).reshape(X.shape)  # (..., n_in)
    dW = X2.T @ dY2  # (n_in, n_out): sums over every example
    db = dY2.sum(axis=0)  # (n_out,)
    return dX, dW, db
