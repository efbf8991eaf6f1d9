"""Exercise: RMSNorm forward."""
from ..norms import rmsnorm_forward as _rmsnorm_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "RMSNorm forward"
PAGE = "layers/rmsnorm.md"
ORDER = 1
KIND = "write"
FUNCTION = "rmsnorm_forward"
OUTPUTS = ("y",)
STATEMENT = """\
Write `rmsnorm_forward(x, gamma, eps=1e-5)` returning `y` with the shape of `x` `(..., d)`: divide every row by its
root mean square \\(\\sqrt{\\mathrm{mean}(x^2) + \\epsilon}\\) and scale by `gamma` `(d,)`. Unlike LayerNorm,
RMSNorm subtracts no mean and adds no bias. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def rmsnorm_forward(x, gamma, eps=1e-5):
    """x: (..., d), gamma: (d,). Return y with the shape of x."""
    ms = (x ** 2).mean(axis=-1, keepdims=True)
    return gamma * x / np.sqrt(ms + eps)
'''
HINTS = (
    "The mean square of a row is `(x ** 2).mean(axis=-1, keepdims=True)`.",
    "eps goes inside the square root.",
)
MISTAKES = (
    Mistake("mean subtracted", "return gamma * x / np.sqrt(ms + eps)",
            "return gamma * (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(ms + eps)",
            "RMSNorm does not centre the row: divide x itself by its root mean square."),
    Mistake("square root forgotten", "np.sqrt(ms + eps)", "(ms + eps)",
            "Divide by the *root* of the mean square, `np.sqrt(ms + eps)`."),
    Mistake("mean of x instead of x squared", "ms = (x ** 2).mean(axis=-1, keepdims=True)",
            "ms = x.mean(axis=-1, keepdims=True) ** 2",
            "That is the square of the mean; RMSNorm needs the mean of the squares, `(x ** 2).mean(...)`."),
)


reference = first_output(_rmsnorm_forward)


CASES = (
    case("the rows [1, 2, 3, 4] and [3, -4, 0, 0]", x=[[1.0, 2.0, 3.0, 4.0], [3.0, -4.0, 0.0, 0.0]],
         gamma=[1.0, 1.0, 2.0, 2.0]),
    random_case("a random batch of shape (2, 3, 5), d = 5", seed=22, x=normal(2, 3, 5, scale=3.0), gamma=normal(5)),
    case("a row of zeros (only eps keeps the division finite) and a row of tiny values",
         x=[[0.0, 0.0, 0.0], [1e-4, -2e-4, 3e-4]], gamma=[1.0, 2.0, 3.0]),
    random_case("a single row x of shape (4,), no leading axis", seed=63, x=normal(4, scale=100.0), gamma=normal(4)),
)

# The statement: x (..., d) any finite rows, gamma (d,), eps a parameter.
DOMAIN = Domain(
    sizes={**LEADING, "rows": range(1, 65), "d": range(1, 769)},
    make=lambda d: {"x": d.normal(*d.lead(), d.rows, d.d, scale=(1.0, 1e-3, 1e3), offset=(0.0, 100.0)),
                    "gamma": d.normal(d.d), "eps": d.pick(1e-5, 1e-2, 0.5)},
)
