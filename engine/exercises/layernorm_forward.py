"""Exercise: LayerNorm forward over the last axis, with the biased variance."""
from ..norms import layernorm_forward as _layernorm_forward
from ._domain import Domain
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "LayerNorm forward"
PAGE = "layers/layernorm.md"
ORDER = 1
KIND = "write"
FUNCTION = "layernorm_forward"
OUTPUTS = ("y",)
STATEMENT = """\
Write `layernorm_forward(x, gamma, beta, eps=1e-5)` returning `y`, the same shape as `x` `(..., d)`.
Normalise every row (the last axis) on its own: subtract the row's mean, divide by
\\(\\sqrt{\\mathrm{var} + \\epsilon}\\) where the variance is the *biased* one (divide by d), then scale by `gamma`
and shift by `beta`, both of shape `(d,)`. `x` may have any number of leading axes. Arrays are float64 (NumPy's
default); leave the inputs unchanged."""
SOLUTION = '''\
def layernorm_forward(x, gamma, beta, eps=1e-5):
    """x: (..., d), gamma and beta: (d,). Return y with the shape of x."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    x_hat = (x - mean) * (1.0 / np.sqrt(var + eps))
    return gamma * x_hat + beta
'''
HINTS = (
    "Reduce over the last axis only, `axis=-1`, and keep it (`keepdims=True`) so the statistics broadcast back.",
    "The variance is the mean of the squared deviations from the row's mean: divide by d, not d - 1.",
    "eps goes inside the square root: `np.sqrt(var + eps)`.",
)
MISTAKES = (
    Mistake("unbiased variance", "var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)",
            "var = x.var(axis=-1, ddof=1, keepdims=True)",
            "This is the unbiased variance (divide by d - 1). LayerNorm divides by d: use the plain mean of the "
            "squared deviations."),
    Mistake("eps outside the root", "np.sqrt(var + eps)", "(np.sqrt(var) + eps)",
            "eps belongs inside the square root, `np.sqrt(var + eps)`, not added to the standard deviation."),
    Mistake("statistics over the wrong axis", "mean = x.mean(axis=-1, keepdims=True)",
            "mean = x.mean(axis=0, keepdims=True)",
            "The mean is taken over the first axis here; LayerNorm normalises each row over its d features, "
            "`axis=-1`."),
    Mistake("gamma and beta swapped", "return gamma * x_hat + beta", "return beta * x_hat + gamma",
            "gamma scales the normalised values and beta shifts them: `gamma * x_hat + beta`."),
)


reference = first_output(_layernorm_forward)


CASES = (
    case("a 2×4 input worked by hand", x=[[1.0, 2.0, 3.0, 4.0], [2.0, -2.0, 0.0, 4.0]],
         gamma=[2.0, 2.0, 2.0, 2.0], beta=[1.0, 1.0, 1.0, 1.0]),
    random_case("a random batch of shape (2, 3, 5), d = 5", seed=1, x=normal(2, 3, 5, scale=3.0),
                gamma=normal(5), beta=normal(5)),
    random_case("a random (4, 7) input with large values", seed=2, x=normal(4, 7, scale=1000.0),
                gamma=normal(7), beta=normal(7)),
    case("a constant row (variance 0, where only eps keeps the division finite) and a row of tiny values",
         x=[[3.0, 3.0, 3.0], [1e-4, -1e-4, 2e-4]], gamma=[1.0, 2.0, 3.0], beta=[0.5, 0.0, -0.5]),
    random_case("a single row x of shape (6,), no leading axis", seed=62, x=normal(6), gamma=normal(6),
                beta=normal(6)),
)

# The statement: x (..., d) with any number of leading axes, any finite rows (offsets and scales LayerNorm removes),
# gamma and beta (d,), eps a parameter. d reaches GPT-2's 768.
DOMAIN = Domain(
    sizes={"axes": (0, 1, 2), "a": range(1, 5), "rows": range(1, 65), "d": range(1, 769)},
    make=lambda d: {"x": d.normal(*(d.a,) * d.axes, d.rows, d.d, scale=(1.0, 1e-3, 1e3), offset=(0.0, 1e3, -50.0)),
                    "gamma": d.normal(d.d), "beta": d.normal(d.d),
                    "eps": d.pick(1e-5, 1e-2, 0.5)},
)
