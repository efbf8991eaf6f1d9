"""Exercise: the LayerNorm backward, checked against the learner's own forward."""
from ..norms import layernorm_backward as _layernorm_backward, layernorm_forward as _layernorm_forward
from ._domain import LEADING, Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "LayerNorm backward"
PAGE = "layers/layernorm.md"
ORDER = 2
KIND = "write"
FUNCTION = "layernorm_backward"
OUTPUTS = ("dx", "dgamma", "dbeta")
STATEMENT = """\
`layernorm_forward` is given: per row of `x` `(..., d)` it takes the mean \\(\\mu\\) and the biased variance
\\(\\sigma^2\\), forms \\(\\hat x = (x - \\mu)/\\sqrt{\\sigma^2 + \\epsilon}\\) and returns
\\(y = \\gamma \\hat x + \\beta\\). Write `layernorm_backward(dy, x, gamma, beta, eps=1e-5)` returning
`(dx, dgamma, dbeta)` from the upstream gradient `dy` (the shape of `x`): `dx` has the shape of `x`, `dgamma` and
`dbeta` the shape `(d,)`. Derive it; the hints go one step at a time and the last one gives the formula. Arrays are
float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def layernorm_forward(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    """dy, x: (..., d); gamma, beta: (d,). Return (dx, dgamma, dbeta)."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mean) * rstd
    g = gamma * dy
    dx = (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) * rstd
    lead = tuple(range(dy.ndim - 1))
    dgamma = (dy * x_hat).sum(axis=lead)
    dbeta = dy.sum(axis=lead)
    return dx, dgamma, dbeta
'''
HINTS = (
    "The parameters first. y = gamma * x_hat + beta, and gamma and beta serve every row: dbeta adds up dy and "
    "dgamma adds up dy * x_hat over every axis except the last.",
    "Now x. Recompute the row's mean, variance and x_hat as the forward did, and let g = gamma * dy, the gradient "
    "that reaches x_hat. If the mean and the variance were constants, dx would simply be g / sqrt(var + eps).",
    "They are not: both depend on every entry of the row. The path through the mean takes away the row's mean of "
    "g; the path through the variance takes away x_hat times the row's mean of g * x_hat.",
    "So dx = (g - mean(g) - x_hat * mean(g * x_hat)) / sqrt(var + eps), each mean over the last axis with "
    "keepdims=True.",
)
MISTAKES = (
    Mistake("mean's path forgotten", "(g - g.mean(axis=-1, keepdims=True) - x_hat", "(g - x_hat",
            "The mean depends on every x in the row, so its path contributes -mean(g): subtract it."),
    Mistake("variance's path forgotten", " - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)", "",
            "The variance also depends on every x in the row: subtract x_hat * mean(g * x_hat)."),
    Mistake("gamma forgotten", "g = gamma * dy", "g = dy",
            "The gradient reaching x_hat is gamma * dy, not dy: y = gamma * x_hat + beta."),
    Mistake("dgamma summed over the features", "dgamma = (dy * x_hat).sum(axis=lead)",
            "dgamma = (dy * x_hat).sum(axis=-1)",
            "dgamma has one entry per feature, shape (d,): add dy * x_hat up over the rows (every axis but the "
            "last), not over the features of each row."),
    Mistake("dgamma and dbeta over the first axis only", "lead = tuple(range(dy.ndim - 1))", "lead = 0",
            "Summing over axis 0 alone leaves the other leading axes, e.g. (T, d) for a (B, T, d) input: gamma and "
            "beta serve every position of every sequence, so sum over all axes but the last."),
)
GRADCHECK = Gradcheck(forward="layernorm_forward", args=("x", "gamma", "beta"), wrt=("x", "gamma", "beta"),
                      upstream="dy")


reference = through_cache(_layernorm_backward, _layernorm_forward)


CASES = (
    case("a 2×4 input with gamma = (1, 2, 3, 4)", dy=[[1.0, 0.0, -1.0, 2.0], [0.5, 0.5, 0.5, -1.0]],
         x=[[1.0, 2.0, 3.0, 4.0], [2.0, -2.0, 0.0, 4.0]], gamma=[1.0, 2.0, 3.0, 4.0], beta=[0.0, 1.0, 0.0, -1.0]),
    random_case("a random batch of shape (2, 3, 5), d = 5", seed=21, dy=normal(2, 3, 5), x=normal(2, 3, 5, scale=2.0),
                gamma=normal(5), beta=normal(5)),
    random_case("a single row x of shape (6,), no leading axis", seed=34, dy=normal(6), x=normal(6), gamma=normal(6),
                beta=normal(6)),
    random_case("a random (4, 3, 2, 7) input with values in the thousands", seed=35, dy=normal(4, 3, 2, 7),
                x=normal(4, 3, 2, 7, scale=1000.0), gamma=normal(7), beta=normal(7)),
)


def _upstream(d):
    x = d.normal(*d.lead(), d.rows, d.d, scale=(1.0, 1e-2, 1e2), offset=(0.0, 10.0))
    return {"dy": d.normal(*x.shape), "x": x, "gamma": d.normal(d.d), "beta": d.normal(d.d),
            "eps": d.pick(1e-5, 1e-2, 0.5)}


# The statement: x (..., d), dy of its shape, gamma and beta (d,), eps a parameter.
DOMAIN = Domain(sizes={**LEADING, "rows": range(1, 65), "d": range(1, 769)}, make=_upstream)
