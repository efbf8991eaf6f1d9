"""Exercise: RMSNorm backward."""
from ..norms import rmsnorm_backward as _rmsnorm_backward, rmsnorm_forward as _rmsnorm_forward
from ._domain import LEADING, Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "RMSNorm backward"
PAGE = "layers/rmsnorm.md"
ORDER = 2
KIND = "write"
FUNCTION = "rmsnorm_backward"
OUTPUTS = ("dx", "dgamma")
STATEMENT = """\
`rmsnorm_forward` is given: per row of `x` `(..., d)` it computes \\(r = 1/\\sqrt{\\mathrm{mean}(x^2) + \\epsilon}\\)
and returns \\(y = \\gamma\\, x\\, r\\). Write `rmsnorm_backward(dy, x, gamma, eps=1e-5)` returning `(dx, dgamma)`
from the upstream gradient `dy` (the shape of `x`): `dx` has the shape of `x`, `dgamma` the shape `(d,)`. Derive
it; the hints go one step at a time and the last one gives the formula. Arrays are float64 (NumPy's default);
leave the inputs unchanged."""
SOLUTION = '''\
def rmsnorm_forward(x, gamma, eps=1e-5):
    return gamma * x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)


def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    """dy, x: (..., d); gamma: (d,). Return (dx, dgamma)."""
    r = 1.0 / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = x * r
    g = gamma * dy
    dx = (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * r
    dgamma = (dy * x_hat).sum(axis=tuple(range(dy.ndim - 1)))
    return dx, dgamma
'''
HINTS = (
    "gamma first: it serves every row, so dgamma adds up dy * x * r over every axis except the last "
    "(`axis=tuple(range(dy.ndim - 1))`).",
    "Now x, with g = gamma * dy. If r were a constant, dx would be g * r.",
    "But r depends on every entry of its row: dr/dx_j = -r^3 x_j / d. That path adds -x * r^3 * mean(g * x) "
    "(the mean over the row).",
    "With x_hat = x * r the two terms combine to dx = (g - x_hat * mean(g * x_hat)) * r, the mean over the last "
    "axis with keepdims=True.",
)
MISTAKES = (
    Mistake("scale treated as a constant", "dx = (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * r",
            "dx = g * r",
            "1 / rms depends on x too, not only the numerator: subtract x_hat * mean(g * x_hat) before scaling."),
    Mistake("dgamma not summed", "dgamma = (dy * x_hat).sum(axis=tuple(range(dy.ndim - 1)))", "dgamma = dy * x_hat",
            "gamma is shared by every row, so dgamma adds up dy * x_hat over all leading axes; it has shape (d,)."),
)
GRADCHECK = Gradcheck(forward="rmsnorm_forward", args=("x", "gamma"), wrt=("x", "gamma"), upstream="dy")


reference = through_cache(_rmsnorm_backward, _rmsnorm_forward)


CASES = (
    case("a 2×4 input with gamma = (1, 2, 3, 4)", dy=[[1.0, 0.0, -1.0, 2.0], [0.5, 0.5, 0.5, -1.0]],
         x=[[1.0, 2.0, 3.0, 4.0], [3.0, -4.0, 0.0, 1.0]], gamma=[1.0, 2.0, 3.0, 4.0]),
    random_case("a random batch of shape (3, 2, 7), d = 7", seed=23, dy=normal(3, 2, 7), x=normal(3, 2, 7),
                gamma=normal(7)),
    random_case("a single row x of shape (5,), no leading axis", seed=36, dy=normal(5), x=normal(5), gamma=normal(5)),
    random_case("a random (2, 2, 3, 6) input with values in the thousands", seed=37, dy=normal(2, 2, 3, 6),
                x=normal(2, 2, 3, 6, scale=1000.0), gamma=normal(6)),
)

# The statement: x (..., d), dy of its shape, gamma (d,), eps a parameter.
DOMAIN = Domain(
    sizes={**LEADING, "rows": range(1, 65), "d": range(1, 769)},
    make=lambda d: {"dy": d.normal(*d.lead(), d.rows, d.d),
                    "x": d.normal(*d.lead(), d.rows, d.d, scale=(1.0, 1e-3, 1e3), offset=(0.0, 100.0)),
                    "gamma": d.normal(d.d), "eps": d.pick(1e-5, 1e-2, 0.5)},
)
