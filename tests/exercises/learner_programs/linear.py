"""Linear forward and backward."""
from engine import exercises

from . import Correct, Wrong, changed, given

LINEAR_FORWARD = exercises.get("linear-forward")
FORWARD = given("linear-backward")
BY_HAND = "a 2×3 X, a 3×3 W and b worked by hand"
BATCH = "a random batch X of shape (2, 4, 5) and W of shape (5, 3)"
BACKWARD_BY_HAND = "a batch of 2 sequences of 2 rows, n_in = 3, n_out = 2"

PROGRAMS = [
    Correct("linear-forward", "einsum over the last axis", '''
def linear_forward(X, W, b):
    return np.einsum("...i,io->...o", X, W) + b
'''),
    Correct("linear-forward", "rows flattened, then the leading axes put back", '''
def linear_forward(X, W, b):
    rows = X.reshape(-1, X.shape[-1])
    return (rows @ W + b).reshape(X.shape[:-1] + (W.shape[1],))
'''),
    Correct("linear-forward", "x.dot(w) + b, after CS231n's affine_forward", '''
# after CS231n's layers.py affine_forward, without flattening x to (N, D): np.dot sums X's last axis with W's first
def linear_forward(X, W, b):
    return X.dot(W) + b
'''),
    Correct("linear-forward", "one output column at a time", '''
def linear_forward(X, W, b):
    columns = [X @ W[:, j] + b[j] for j in range(W.shape[1])]
    return np.stack(columns, axis=-1)
'''),
    Wrong("linear-forward", "the bias as a column", '''
def linear_forward(X, W, b):
    return X @ W + b[:, None]
''', f"`linear_forward` raised ValueError on {BY_HAND}."),
    Wrong("linear-forward", "the bias summed to one number", '''
def linear_forward(X, W, b):
    return X @ W + b.sum()
''', f"On {BY_HAND}, `Y` is wrong in 4 of 6 entries.", LINEAR_FORWARD.MISTAKES[1].hint),  # b sums to 0 there
    Wrong("linear-forward", "einsum written for 2-D X only", '''
def linear_forward(X, W, b):
    return np.einsum("bi,io->bo", X, W) + b
''', f"`linear_forward` raised ValueError on {BATCH}."),
    Wrong("linear-forward", "rows flattened and never put back", '''
def linear_forward(X, W, b):
    return X.reshape(-1, X.shape[-1]) @ W + b
''', f"On {BATCH}, `Y` has shape (8, 3) but should have shape (2, 4, 3)."),  # no hint: W.T's output is (2, 4, 3)
    Wrong("linear-forward", "float32", '''
def linear_forward(X, W, b):
    return (X @ W + b).astype(np.float32)
''', f"On {BY_HAND}, `Y` has dtype float32 but should have dtype float64."),

    Correct("linear-backward", "einsum for every gradient", FORWARD + '''
def linear_backward(dY, X, W, b):
    dX = np.einsum("...o,io->...i", dY, W)
    dW = np.einsum("bti,bto->io", X, dY)
    db = dY.sum(axis=tuple(range(dY.ndim - 1)))
    return dX, dW, db
'''),
    Correct("linear-backward", "a loop over the sequences of the batch", FORWARD + '''
def linear_backward(dY, X, W, b):
    dW = np.zeros_like(W)
    for Xb, dYb in zip(X, dY):
        dW += Xb.T @ dYb
    return dY @ W.T, dW, dY.sum(axis=(0, 1))
'''),
    Correct("linear-backward", "after CS231n's affine_backward, with the rows flattened", FORWARD + '''
# after CS231n's layers.py affine_backward: dx = dout.dot(w.T), dw = x.T.dot(dout), db = dout.sum(axis=0)
def linear_backward(dY, X, W, b):
    x = X.reshape(-1, W.shape[0])
    dout = dY.reshape(-1, W.shape[1])
    dx = dout.dot(W.T).reshape(X.shape)
    return dx, x.T.dot(dout), np.sum(dout, axis=0)
'''),
    Wrong("linear-backward", "db as a mean", FORWARD + '''
def linear_backward(dY, X, W, b):
    X2, dY2 = X.reshape(-1, X.shape[-1]), dY.reshape(-1, dY.shape[-1])
    return dY @ W.T, X2.T @ dY2, dY2.mean(axis=0)
''', f"On {BACKWARD_BY_HAND}, `db` is wrong in 2 of 2 entries."),
    Wrong("linear-backward", "dX without the transpose", FORWARD + '''
def linear_backward(dY, X, W, b):
    X2, dY2 = X.reshape(-1, X.shape[-1]), dY.reshape(-1, dY.shape[-1])
    return dY @ W, X2.T @ dY2, dY2.sum(axis=0)
''', f"`linear_backward` raised ValueError on {BACKWARD_BY_HAND}."),
    Wrong("linear-backward", "dW averaged over the rows", FORWARD + '''
def linear_backward(dY, X, W, b):
    X2, dY2 = X.reshape(-1, X.shape[-1]), dY.reshape(-1, dY.shape[-1])
    return dY @ W.T, X2.T @ dY2 / len(X2), dY2.sum(axis=0)
''', f"On {BACKWARD_BY_HAND}, `dW` is wrong in 6 of 6 entries."),  # X2.T @ dY2 = [[8, -2], [3, 2], [3, -1]]
    Wrong("linear-backward", "the upstream gradient cleared afterwards", FORWARD + '''
def linear_backward(dY, X, W, b):
    X2, dY2 = X.reshape(-1, X.shape[-1]), dY.reshape(-1, dY.shape[-1])
    grads = dY @ W.T, X2.T @ dY2, dY2.sum(axis=0)
    dY[...] = 0.0
    return grads
''', changed(BACKWARD_BY_HAND, "linear_backward", "dY")),
]
