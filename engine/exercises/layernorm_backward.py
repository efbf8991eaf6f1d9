"""Exercise: the LayerNorm backward, checked against the learner's own forward."""
from ..norms import layernorm_backward as _layernorm_backward, layernorm_forward as _layernorm_forward
from ._spec import Gradcheck, Mistake, case, normal, random_case, starter

TITLE = "LayerNorm backward"
PAGE = "layers/layernorm.md"
ORDER = 2
KIND = "write"
FUNCTION = "layernorm_backward"
OUTPUTS = ("dx", "dgamma", "dbeta")
STATEMENT = """\
`layernorm_forward` is given. Write `layernorm_backward(dy, x, gamma, beta, eps=1e-5)` returning
`(dx, dgamma, dbeta)` for `x` `(..., d)` and the upstream gradient `dy` of the same shape. With
\\(\\hat x = (x - \\mu)/\\sqrt{\\sigma^2 + \\epsilon}\\) and \\(g = \\gamma \\cdot dy\\), each row's
\\(dx = (g - \\mathrm{mean}(g) - \\hat x\\,\\mathrm{mean}(g \\hat x)) / \\sqrt{\\sigma^2 + \\epsilon}\\).
`dgamma` and `dbeta` have shape `(d,)` and sum over every leading axis."""
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
STARTER = starter(SOLUTION, FUNCTION)
HINTS = (
    "Recompute mean, variance and x_hat from x first, as the forward did.",
    "The mean and the variance both depend on every entry of the row: that gives the two subtracted terms.",
    "dgamma = sum of dy * x_hat and dbeta = sum of dy over all axes except the last.",
)
MISTAKES = (
    Mistake("mean's path forgotten", "(g - g.mean(axis=-1, keepdims=True) - x_hat", "(g - x_hat",
            "The mean depends on every x in the row, so its path contributes -mean(g): subtract it."),
    Mistake("variance's path forgotten", " - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)", "",
            "The variance also depends on every x in the row: subtract x_hat * mean(g * x_hat)."),
    Mistake("gamma forgotten", "g = gamma * dy", "g = dy",
            "The gradient reaching x_hat is gamma * dy, not dy: y = gamma * x_hat + beta."),
)
GRADCHECK = Gradcheck(forward="layernorm_forward", args=("x", "gamma", "beta"), wrt=("x", "gamma", "beta"),
                      upstream="dy")


def reference(dy, x, gamma, beta, eps=1e-5):
    return _layernorm_backward(dy, _layernorm_forward(x, gamma, beta, eps)[1])


CASES = (
    case("a 2×4 input with gamma = (1, 2, 3, 4)", dy=[[1.0, 0.0, -1.0, 2.0], [0.5, 0.5, 0.5, -1.0]],
         x=[[1.0, 2.0, 3.0, 4.0], [2.0, -2.0, 0.0, 4.0]], gamma=[1.0, 2.0, 3.0, 4.0], beta=[0.0, 1.0, 0.0, -1.0]),
    random_case("a random batch of shape (2, 3, 5), d = 5", seed=21, dy=normal(2, 3, 5), x=normal(2, 3, 5, scale=2.0),
                gamma=normal(5), beta=normal(5)),
)
