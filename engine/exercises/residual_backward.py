"""Exercise (fix the bug): the gradient through a residual connection has two paths."""
from ..linear import linear_backward as _linear_backward, linear_forward as _linear_forward
from ..residual import residual_backward as _residual_backward, residual_forward as _residual_forward
from ._domain import LEADING, Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case

TITLE = "Residual backward"
PAGE = "layers/residual.md"
ORDER = 2
KIND = "fix"
FUNCTION = "residual_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
For the residual layer `y = x + x @ W` (given as `residual_forward`), `residual_backward(dy, x, W)` should return
`dx`, the gradient with respect to `x` `(..., d)`, given `dy` of the same shape and `W` `(d, d)`. The code below
drops part of the gradient. Fix it. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def residual_forward(x, W):
    return x + x @ W


def residual_backward(dy, x, W):
    """dy, x: (..., d), W: (d, d). Return dx."""
    dx_branch = dy @ W.T
    return dy + dx_branch
'''
HINTS = (
    "x reaches y along two paths: directly (the skip) and through x @ W (the branch).",
    "The derivative of the skip is the identity, so it hands dy back unchanged; gradients of two paths add.",
)
MISTAKES = (
    Mistake("skip path forgotten", "return dy + dx_branch", "return dx_branch",
            "x reaches y along two paths, and their gradients add: the skip path contributes dy itself, so "
            "dx = dy + dy @ W.T."),
    Mistake("branch without the transpose", "dx_branch = dy @ W.T", "dx_branch = dy @ W",
            "The gradient through x @ W is dy @ W.T: multiply by the transpose of W."),
)
GRADCHECK = Gradcheck(forward="residual_forward", args=("x", "W"), wrt=("x",), upstream="dy")


def reference(dy, x, W):
    fx, f_cache = _linear_forward(x, W, 0.0 * W[0])
    _, r_cache = _residual_forward(x, fx)
    dx_skip, dfx = _residual_backward(dy, r_cache)
    return dx_skip + _linear_backward(dfx, f_cache)[0]


CASES = (
    case("a 2×2 input with a 2×2 W", dy=[[1.0, 0.0], [2.0, -1.0]], x=[[1.0, 2.0], [3.0, 4.0]],
         W=[[0.0, 1.0], [2.0, 0.5]]),
    random_case("a random batch of shape (2, 3, 4)", seed=25, dy=normal(2, 3, 4), x=normal(2, 3, 4), W=normal(4, 4)),
    random_case("a single vector x of shape (3,), no leading axis", seed=64, dy=normal(3), x=normal(3), W=normal(3, 3)),
)

# The statement: x (..., d), dy of its shape, W (d, d).
DOMAIN = Domain(
    sizes={**LEADING, "rows": range(1, 33), "d": range(1, 257)},
    make=lambda d: {"dy": d.normal(*d.lead(), d.rows, d.d), "x": d.normal(*d.lead(), d.rows, d.d),
                    "W": d.normal(d.d, d.d, scale=(1.0, 0.02))},
)
