"""Exercise: numerically stable softmax over the last axis, masked (-inf) scores included."""
import numpy as np

from ..softmax import softmax_forward as _softmax_forward
from ._domain import Domain
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "Stable softmax"
PAGE = "layers/softmax.md"
ORDER = 1
KIND = "write"
FUNCTION = "softmax"
OUTPUTS = ("p",)
STATEMENT = """\
Write `softmax(x)` returning probabilities over the last axis of `x` `(..., n)`: every row of the result is
non-negative and sums to 1. It must work for any finite scores, also very large ones (subtract each row's maximum
before `np.exp`), and for scores of `-inf` (masked entries), which get probability exactly 0. Arrays are float64
(NumPy's default); leave `x` unchanged."""
SOLUTION = '''\
def softmax(x):
    """x: (..., n), may contain -inf. Return p of the same shape; every row sums to 1."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''
HINTS = (
    "softmax(x) = softmax(x - c) for any constant c per row; choose c = the row's maximum.",
    "Use `axis=-1, keepdims=True` for both the maximum and the sum so they broadcast back over the row.",
    "exp(-inf) is 0, so a masked entry needs no special case once the maximum is subtracted.",
)
MISTAKES = (
    Mistake("no maximum subtracted", "np.exp(x - x.max(axis=-1, keepdims=True))", "np.exp(x)",
            "exp overflows to inf for scores above ~709 and inf / inf is nan: subtract each row's maximum first "
            "(softmax does not change when the whole row is shifted)."),
    Mistake("sum over everything", "e / e.sum(axis=-1, keepdims=True)", "e / e.sum()",
            "Each row is its own distribution: divide by the row's sum (`axis=-1, keepdims=True`), not the sum of "
            "the whole array."),
    Mistake("global maximum", "np.exp(x - x.max(axis=-1, keepdims=True))", "np.exp(x - x.max())",
            "Subtracting the largest value of the whole array is not enough: a row whose scores are all far below "
            "it underflows to 0 / 0. Subtract each row's own maximum."),
)


reference = first_output(_softmax_forward)


def _masked(rng):
    scores = rng.standard_normal((2, 4, 4))
    return np.where(np.tril(np.ones((4, 4), dtype=bool)), scores, -np.inf)


def _far_apart(rng):
    return rng.standard_normal((3, 5)) + np.array([[0.0], [-1000.0], [1000.0]])


CASES = (
    case("the rows [1, 2, 3] and [0, 0, 0]", x=[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]),
    random_case("scores of shape (2, 4, 4) with -inf above the diagonal (a causal mask)", seed=14, x=_masked),
    random_case("3 rows of 5 scores around 0, -1000 and +1000", seed=15, x=_far_apart),
    random_case("a random (6, 7) input", seed=16, x=normal(6, 7, scale=5.0)),
    random_case("a single row of 5 scores, shape (5,)", seed=54, x=normal(5)),
    case("a row with one finite score among -inf", x=[[-np.inf, 2.0, -np.inf, -np.inf]]),
)


def _scores(d):
    """Any finite scores (huge ones, rows far apart), some masked with -inf (every row keeps one finite score)."""
    x = d.normal(*(d.a,) * d.axes, d.rows, d.n, scale=(1.0, 30.0, 1e3), offset=(0.0, 800.0, -800.0))
    if d.pick(False, True):
        x = x + d.normal(*x.shape[:-1], 1, scale=1e3)  # each row its own offset
    if d.pick(False, True):
        keep = d.integers(0, 2, *x.shape).astype(bool)
        keep[..., 0] = True
        x = np.where(keep, x, -np.inf)
    return x


DOMAIN = Domain(sizes={"axes": (0, 1, 2), "a": range(1, 4), "rows": range(1, 65), "n": range(1, 1025)},
                make=lambda d: {"x": _scores(d)})
