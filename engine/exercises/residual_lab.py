"""Exercise (lab): a pre-LN residual update, then a deep stack of it drawn with and without the skip path."""
import numpy as np

from ..examples.svg import line_chart
from ..linear import linear_forward as _linear_forward
from ..norms import layernorm_forward as _layernorm_forward
from ..residual import residual_forward as _residual_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, normal, random_case

TITLE = "Lab: LayerNorm and a residual update"
PAGE = "layers/residual.md"
ORDER = 1
KIND = "write"
LAB = True
FUNCTION = "residual_update"
OUTPUTS = ("y",)
STATEMENT = """\
Write `residual_update(x, W, gamma, beta, eps=1e-5)` returning \\(y = x + \\mathrm{LN}(x)\\,W\\): a pre-LN sublayer
whose branch is a linear map without bias. `x` is `(..., d)`, `W` `(d, d)`, `gamma` and `beta` `(d,)`; LN is
LayerNorm over the last axis with the biased variance. When your code passes, the page stacks it 40 times and plots
how large the activations are after each layer, next to the same stack without the skip path. Arrays are float64
(NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def residual_update(x, W, gamma, beta, eps=1e-5):
    """x: (..., d), W: (d, d), gamma and beta: (d,). Return x + layernorm(x) @ W."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    h = gamma * (x - mean) / np.sqrt(var + eps) + beta
    return x + h @ W
'''
HINTS = (
    "First the LayerNorm of x (per row, biased variance), then the branch h @ W, then add x.",
    "The norm sits on the branch only: the skip path carries x itself, unnormalised.",
)
MISTAKES = (
    Mistake("skip path missing", "return x + h @ W", "return h @ W",
            "The residual adds the input back: y = x + LN(x) @ W. Without x the layer has no skip path."),
    Mistake("branch not normalised", "return x + h @ W", "return x + x @ W",
            "The branch sees the normalised input: use LN(x) @ W, not x @ W."),
    Mistake("post-LN order", "    h = gamma * (x - mean) / np.sqrt(var + eps) + beta\n    return x + h @ W\n",
            "    s = x + x @ W\n    mean = s.mean(axis=-1, keepdims=True)\n"
            "    var = ((s - mean) ** 2).mean(axis=-1, keepdims=True)\n"
            "    return gamma * (s - mean) / np.sqrt(var + eps) + beta\n",
            "That is the post-LN order, LN(x + x @ W). Here the norm goes on the branch: x + LN(x) @ W."),
)


def reference(x, W, gamma, beta, eps=1e-5):
    h = _layernorm_forward(x, gamma, beta, eps)[0]
    return _residual_forward(x, _linear_forward(h, W, np.zeros(W.shape[1]))[0])[0]


CASES = (
    case("a 2×3 input worked by hand", x=[[1.0, 2.0, 3.0], [0.0, 3.0, 0.0]],
         W=[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0]], gamma=[1.0, 1.0, 1.0], beta=[0.0, 0.0, 0.0]),
    random_case("a random batch of shape (2, 3, 5), d = 5", seed=24, x=normal(2, 3, 5, scale=2.0),
                W=normal(5, 5, scale=0.5), gamma=normal(5), beta=normal(5)),
    random_case("a single vector x of shape (4,), values in the thousands", seed=65, x=normal(4, scale=1000.0),
                W=normal(4, 4), gamma=normal(4), beta=normal(4)),
)

DEPTH, WIDTH, ROWS = 40, 64, 16
GAIN = 0.7  # each random W shrinks a vector's size to about 0.7 of it: a stack of them alone fades away


def figure(residual_update):
    """Std of the activations after each of DEPTH layers: the learner's residual update against a plain stack."""
    rng = np.random.default_rng(0)
    x0 = rng.standard_normal((ROWS, WIDTH))
    weights = rng.normal(0.0, GAIN / np.sqrt(WIDTH), (DEPTH, WIDTH, WIDTH))
    ones, zeros = np.ones(WIDTH), np.zeros(WIDTH)
    with_skip, plain = [x0.std()], [x0.std()]
    x, z = x0, x0
    for W in weights:
        x = np.asarray(residual_update(x, W, ones, zeros), dtype=np.float64)
        z = _linear_forward(z, W, zeros)[0]
        with_skip.append(x.std())
        plain.append(z.std())
    layers = np.arange(DEPTH + 1)
    return line_chart([("x + LN(x) W (your residual_update)", layers, with_skip), ("x W alone (no skip, no norm)",
                       layers, plain)], "layer", "std of the activations", log_y=True)

# The statement: x (..., d), W (d, d), gamma and beta (d,), eps a parameter.
DOMAIN = Domain(
    sizes={**LEADING, "rows": range(1, 33), "d": range(1, 257)},
    make=lambda d: {"x": d.normal(*d.lead(), d.rows, d.d, scale=(1.0, 1e3), offset=(0.0, 100.0)),
                    "W": d.normal(d.d, d.d, scale=(1.0, 0.02)), "gamma": d.normal(d.d), "beta": d.normal(d.d),
                    "eps": d.pick(1e-5, 0.1)},
)
