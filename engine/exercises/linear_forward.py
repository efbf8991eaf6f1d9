"""Exercise: the linear layer Y = X @ W + b with leading batch axes."""
from ..linear import linear_forward as _linear_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "Linear forward"
PAGE = "layers/linear.md"
ORDER = 1
KIND = "write"
FUNCTION = "linear_forward"
OUTPUTS = ("Y",)
STATEMENT = """\
Write `linear_forward(X, W, b)` returning `Y = X @ W + b`. `X` is `(..., n_in)` (any number of leading axes:
a batch, a sequence), `W` is `(n_in, n_out)` and `b` is `(n_out,)`; `Y` is `(..., n_out)`. The same `W` and `b`
serve every row of `X`. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def linear_forward(X, W, b):
    """X: (..., n_in), W: (n_in, n_out), b: (n_out,). Return Y of shape (..., n_out)."""
    return X @ W + b
'''
HINTS = (
    "`@` multiplies the last axis of X with the first axis of W, whatever leading axes X has.",
    "b has one entry per output and broadcasts over every row.",
)
MISTAKES = (
    Mistake("W transposed", "X @ W + b", "X @ W.T + b",
            "Here W is stored as (n_in, n_out), so `X @ W` needs no transpose."),
    Mistake("bias forgotten", "X @ W + b", "X @ W",
            "The bias is missing: add `b` (it broadcasts over every row)."),
)


reference = first_output(_linear_forward)


CASES = (
    case("a 2×3 X, a 3×3 W and b worked by hand", X=[[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]],
         W=[[1.0, 0.0, 2.0], [0.0, 1.0, 0.0], [-1.0, 1.0, 1.0]], b=[0.5, -0.5, 0.0]),
    random_case("a random batch X of shape (2, 4, 5) and W of shape (5, 3)", seed=8, X=normal(2, 4, 5),
                W=normal(5, 3), b=normal(3)),
    random_case("a single row X (1, 7) and W (7, 2)", seed=9, X=normal(1, 7), W=normal(7, 2), b=normal(2)),
    random_case("a single vector X of shape (4,), no leading axis", seed=48, X=normal(4), W=normal(4, 3), b=normal(3)),
    random_case("X of shape (2, 2, 3, 4) with a square W (4, 4)", seed=49, X=normal(2, 2, 3, 4), W=normal(4, 4),
                b=normal(4)),
)

# The statement: X (..., n_in) with any leading axes, W (n_in, n_out), b (n_out,); GPT-2's widths.
DOMAIN = Domain(
    sizes={**LEADING, "rows": range(1, 33), "n_in": range(1, 769), "n_out": range(1, 769)},
    make=lambda d: {"X": d.normal(*d.lead(), d.rows, d.n_in, offset=(0.0, 1e3)), "W": d.normal(d.n_in, d.n_out),
                    "b": d.normal(d.n_out, scale=(1.0, 1e3))},
)
