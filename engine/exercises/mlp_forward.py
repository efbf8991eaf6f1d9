"""Exercise: the transformer block's feed-forward sublayer."""
from ..config import GPTConfig as _GPTConfig
from ..model import mlp_forward as _mlp_forward
from ._spec import Mistake, case, normal, random_case

TITLE = "The feed-forward sublayer"
PAGE = "model/model.md"
ORDER = 1
KIND = "write"
FUNCTION = "mlp_forward"
OUTPUTS = ("y",)
STATEMENT = """\
Write `mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b)` returning the block's feed-forward sublayer
`ff2(gelu(ff1(x)))`: `x` `(..., d)` goes through the linear layer `ff1` (`ff1_w` `(d, F)`, `ff1_b` `(F,)`), GPT-2's
tanh GELU, and the linear layer `ff2` (`ff2_w` `(F, d)`, `ff2_b` `(d,)`) back to `(..., d)`. Arrays are float64
(NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    """x: (..., d), ff1_w: (d, F), ff1_b: (F,), ff2_w: (F, d), ff2_b: (d,). Return y (..., d)."""
    h = x @ ff1_w + ff1_b
    a = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h * h * h)))
    return a @ ff2_w + ff2_b
'''
HINTS = (
    "Three steps: widen to F with ff1, apply GELU to every entry, project back to d with ff2.",
    "GELU (tanh form): 0.5 h (1 + tanh(sqrt(2/pi) (h + 0.044715 h^3))).",
)
MISTAKES = (
    Mistake("no activation", "return a @ ff2_w + ff2_b", "return h @ ff2_w + ff2_b",
            "The GELU between the two linear layers is missing; without it the two collapse into one linear map."),
    Mistake("ReLU instead of GELU", "a = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h * h * h)))",
            "a = np.maximum(h, 0.0)",
            "This model uses GPT-2's GELU (tanh form), not ReLU: the two differ for inputs near and below 0."),
)


def reference(x, ff1_w, ff1_b, ff2_w, ff2_b):
    config = _GPTConfig(emb_dim=ff1_w.shape[0], ff_dim=ff1_w.shape[1], num_heads=1, activation="gelu")
    params = {"b0.ff1_w": ff1_w, "b0.ff1_b": ff1_b, "b0.ff2_w": ff2_w, "b0.ff2_b": ff2_b}
    return _mlp_forward(x, params, "b0", config)[0]


CASES = (
    case("one token with d = 2, F = 3", x=[[1.0, -1.0]], ff1_w=[[1.0, 0.0, -1.0], [0.5, 1.0, 0.0]],
         ff1_b=[0.0, 0.5, -0.5], ff2_w=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], ff2_b=[0.1, -0.1]),
    random_case("a random batch (2, 3, 5) with F = 7", seed=31, x=normal(2, 3, 5), ff1_w=normal(5, 7), ff1_b=normal(7),
                ff2_w=normal(7, 5), ff2_b=normal(5)),
    random_case("a single vector x of shape (4,), no leading axis, F = 16", seed=80, x=normal(4), ff1_w=normal(4, 16),
                ff1_b=normal(16), ff2_w=normal(16, 4), ff2_b=normal(4)),
)
