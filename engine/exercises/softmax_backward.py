"""Exercise: the softmax backward as a Jacobian-vector product."""
from ..softmax import softmax_backward as _softmax_backward, softmax_forward as _softmax_forward
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "Softmax backward"
PAGE = "layers/softmax.md"
ORDER = 2
KIND = "write"
FUNCTION = "softmax_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
`softmax(x)` is given: along the last axis of `x` `(..., n)`, \\(p_i = e^{x_i} / \\sum_k e^{x_k}\\). Write
`softmax_backward(dp, x)` returning `dx`, the shape of `x`, from the upstream gradient `dp` (also the shape of `x`).
Derive it; the hints go one step at a time and the last one gives the formula. Arrays are float64 (NumPy's
default); scores may be in the thousands; leave the inputs unchanged."""
SOLUTION = '''\
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_backward(dp, x):
    """dp and x: (..., n). Return dx of the same shape."""
    p = softmax(x)
    return p * (dp - (dp * p).sum(axis=-1, keepdims=True))
'''
HINTS = (
    "Work on one row. Every p_j depends on every x_i of the row, so by the chain rule dx_i = sum over j of "
    "(dL/dp_j) (dp_j/dx_i), where dL/dp_j is the upstream gradient, the array `dp` at j.",
    "The Jacobian entry is dp_j/dx_i = p_j (delta_ij - p_i): p_i (1 - p_i) on the diagonal, -p_i p_j elsewhere.",
    "In the sum over j the delta keeps p_i dp[i], and the rest gives -p_i times one number per row, "
    "sum_j dp[j] p_j. "
    "Keep that number's axis (`keepdims=True`) so it broadcasts back over its row.",
    "dx = p * (dp - (dp * p).sum(axis=-1, keepdims=True)); the n×n Jacobian never needs to be built.",
)
MISTAKES = (
    Mistake("diagonal only", "p * (dp - (dp * p).sum(axis=-1, keepdims=True))", "p * (1 - p) * dp",
            "p * (1 - p) is only the diagonal of the Jacobian: each p_j also depends on the other entries of its "
            "row, which adds -p_i * sum_j dp_j p_j."),
    Mistake("sum over the whole array", "(dp * p).sum(axis=-1, keepdims=True)", "(dp * p).sum()",
            "The correction term is one sum per row (`axis=-1, keepdims=True`), not one for the whole array."),
    Mistake("keepdims forgotten", "(dp * p).sum(axis=-1, keepdims=True)", "(dp * p).sum(axis=-1)",
            "Without `keepdims=True` the row sums have shape (...,) and broadcast along the last axis, across the "
            "columns instead of down the rows: for a square input that is silently wrong. Keep the summed axis."),
)
GRADCHECK = Gradcheck(forward="softmax", args=("x",), wrt=("x",), upstream="dp")


reference = through_cache(_softmax_backward, _softmax_forward)


CASES = (
    case("the 3×3 scores [[1, 2, 3], [0, 0, 0], [-1, 0, 1]] with dp worked by hand",
         dp=[[1.0, 0.0, 0.0], [0.0, 2.0, -1.0], [0.5, -0.5, 1.0]],
         x=[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 1.0]]),
    random_case("a random (2, 3, 5) input", seed=17, dp=normal(2, 3, 5), x=normal(2, 3, 5, scale=2.0)),
    random_case("a single row of 6 scores, shape (6,)", seed=38, dp=normal(6), x=normal(6)),
    random_case("4 rows of 5 scores in the thousands", seed=39, dp=normal(4, 5), x=normal(4, 5, scale=1000.0)),
)
