"""Exercise: the three gradients of a linear layer over a batch axis."""
from ..linear import linear_backward as _linear_backward, linear_forward as _linear_forward
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "Linear backward over a batch"
PAGE = "layers/linear.md"
ORDER = 2
KIND = "write"
FUNCTION = "linear_backward"
OUTPUTS = ("dX", "dW", "db")
STATEMENT = """\
`linear_forward` is given. Write `linear_backward(dY, X, W, b)` returning `(dX, dW, db)` for `Y = X @ W + b`, where
`X` is `(B, T, n_in)`, `W` is `(n_in, n_out)`, `b` is `(n_out,)` and the upstream gradient `dY` is `(B, T, n_out)`.
`dX` has the shape of `X`; `dW` and `db` have the shapes of `W` and `b` and collect a contribution from *every*
row of the batch. (`b` is passed only so the signature mirrors the forward.) Arrays are float64 (NumPy's default);
leave the inputs unchanged."""
SOLUTION = '''\
def linear_forward(X, W, b):
    return X @ W + b


def linear_backward(dY, X, W, b):
    """dY: (B, T, n_out), X: (B, T, n_in), W: (n_in, n_out). Return (dX, dW, db)."""
    X2 = X.reshape(-1, X.shape[-1])
    dY2 = dY.reshape(-1, dY.shape[-1])
    dX = (dY2 @ W.T).reshape(X.shape)
    dW = X2.T @ dY2
    db = dY2.sum(axis=0)
    return dX, dW, db
'''
HINTS = (
    "Check shapes first: dX = dY @ W.T is (B, T, n_in) like X.",
    "W is shared by all B*T rows, so dW sums X^T dY over every row: flatten the leading axes with "
    "`reshape(-1, n)` first.",
    "db is the sum of dY over every axis but the last.",
)
MISTAKES = (
    Mistake("bias gradient over one axis", "db = dY2.sum(axis=0)", "db = dY.sum(axis=0)",
            "Summing over axis 0 alone leaves the T axis: b is shared by every position of every sequence, so sum "
            "over all leading axes (flatten them first)."),
    Mistake("dW transposed", "dW = X2.T @ dY2", "dW = dY2.T @ X2",
            "dW must have W's shape (n_in, n_out): it is `X^T @ dY`, not `dY^T @ X`."),
    Mistake("dW from the last example only", "dW = X2.T @ dY2", "dW = X[-1].T @ dY[-1]",
            "W serves every example in the batch, so its gradient adds up all of them: flatten the leading axes "
            "and use `X2.T @ dY2`."),
)
GRADCHECK = Gradcheck(forward="linear_forward", args=("X", "W", "b"), wrt=("X", "W", "b"), upstream="dY")


reference = through_cache(_linear_backward, _linear_forward)


CASES = (
    case("a batch of 2 sequences of 2 rows, n_in = 3, n_out = 2",
         dY=[[[1.0, 0.0], [0.0, 1.0]], [[2.0, -1.0], [1.0, 1.0]]],
         X=[[[1.0, 2.0, 0.0], [0.0, 1.0, -1.0]], [[3.0, 0.0, 1.0], [1.0, 1.0, 1.0]]],
         W=[[1.0, -1.0], [0.0, 2.0], [0.5, 0.0]], b=[0.0, 1.0]),
    random_case("a random batch (3, 4, 5) with n_out = 3", seed=10, dY=normal(3, 4, 3), X=normal(3, 4, 5),
                W=normal(5, 3), b=normal(3)),
    random_case("a square layer, n_in = n_out = 4, batch (2, 3)", seed=50, dY=normal(2, 3, 4), X=normal(2, 3, 4),
                W=normal(4, 4), b=normal(4)),
    random_case("one sequence of one row, B = T = 1", seed=51, dY=normal(1, 1, 2), X=normal(1, 1, 5), W=normal(5, 2),
                b=normal(2)),
)
