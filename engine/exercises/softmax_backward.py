"""Exercise: the softmax backward as a Jacobian-vector product."""
from ..softmax import softmax_backward as _softmax_backward, softmax_forward as _softmax_forward
from ._spec import Gradcheck, Mistake, case, normal, random_case, starter

TITLE = "Softmax backward"
PAGE = "layers/softmax.md"
ORDER = 2
KIND = "write"
FUNCTION = "softmax_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
`softmax(x)` is given. Write `softmax_backward(dp, x)` returning `dx` for `p = softmax(x)` over the last axis, given
the upstream gradient `dp` (shape of `x`). Every `p_j` depends on every `x_i` of its row, so the gradient is
\\(dx_i = p_i\\,(dp_i - \\sum_j dp_j\\,p_j)\\) per row: no need to build the n×n Jacobian."""
SOLUTION = '''\
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_backward(dp, x):
    """dp and x: (..., n). Return dx of the same shape."""
    p = softmax(x)
    return p * (dp - (dp * p).sum(axis=-1, keepdims=True))
'''
STARTER = starter(SOLUTION, FUNCTION)
HINTS = (
    "The Jacobian is diag(p) - p p^T per row; multiply it by dp without forming it.",
    "The sum `(dp * p).sum(axis=-1, keepdims=True)` is one number per row.",
)
MISTAKES = (
    Mistake("diagonal only", "p * (dp - (dp * p).sum(axis=-1, keepdims=True))", "p * (1 - p) * dp",
            "p * (1 - p) is only the diagonal of the Jacobian: each p_j also depends on the other entries of its "
            "row, which adds -p_i * sum_j dp_j p_j."),
    Mistake("sum over the whole array", "(dp * p).sum(axis=-1, keepdims=True)", "(dp * p).sum()",
            "The correction term is one sum per row (`axis=-1, keepdims=True`), not one for the whole array."),
)
GRADCHECK = Gradcheck(forward="softmax", args=("x",), wrt=("x",), upstream="dp")


def reference(dp, x):
    return _softmax_backward(dp, _softmax_forward(x)[1])


CASES = (
    case("the rows [1, 2, 3] and [0, 0, 0] with dp worked by hand", dp=[[1.0, 0.0, 0.0], [0.0, 2.0, -1.0]],
         x=[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]),
    random_case("a random (2, 3, 5) input", seed=17, dp=normal(2, 3, 5), x=normal(2, 3, 5, scale=2.0)),
)
