"""Exercise: a pre-LN transformer block, backward: the sublayers in reverse, the residual gradients added."""
from ..model import block_backward as _block_backward, block_forward as _block_forward
from ._domain import Domain
from ._given import Given
from ._spec import Gradcheck, Mistake, normal, random_case
from .block_forward import BLOCK_SIZES, PARAMS, block_params, config_for, draws, drawn_params
from .block_forward import SOLUTION as _FORWARD_SOLUTION  # the forward it is given

TITLE = "A pre-LN block, backward"
PAGE = "model/model.md"
ORDER = 4
KIND = "write"
FUNCTION = "block_backward"
OUTPUTS = ("dx", *(f"d{name}" for name in PARAMS))
MLP_BACKWARD = '''\
def mlp_backward(dy, x, ff1_w, ff1_b, ff2_w, ff2_b):
    c = np.sqrt(2.0 / np.pi)
    h = x @ ff1_w + ff1_b
    t = np.tanh(c * (h + 0.044715 * h ** 3))
    a = 0.5 * h * (1.0 + t)
    dh = (dy @ ff2_w.T) * (0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * c * (1.0 + 3 * 0.044715 * h * h))
    lead = tuple(range(dy.ndim - 1))
    return (dh @ ff1_w.T, np.tensordot(x, dh, axes=(lead, lead)), dh.sum(axis=lead),
            np.tensordot(a, dy, axes=(lead, lead)), dy.sum(axis=lead))
'''
GIVEN = ("layernorm-forward", "layernorm-backward", "attention-forward", "attention-backward", "mlp-forward",
         Given("mlp_backward", MLP_BACKWARD))
STATEMENT = """\
`block_forward` is given (the solution of *A pre-LN block, forward*): \\(h = x + \\mathrm{attn}(\\mathrm{LN}_1(x))\\),
\\(y = h + \\mathrm{mlp}(\\mathrm{LN}_2(h))\\). Write `block_backward(dy, x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo,
bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b, num_heads)` returning `dx` and then the gradient of every parameter,
in the order of the arguments (`dx, dln1_g, dln1_b, dwq, ..., dff2_b`: 17 arrays), from `dy` `(B, T, d)`. These
are defined for you by their names (the exercises' solutions; in *Build your GPT*, yours where you passed them):
`layernorm_forward(x, gamma, beta)`, `layernorm_backward(dy, x, gamma, beta)` returning `(dx, dgamma, dbeta)`,
`attention_forward(...)` and `attention_backward(dy, x, wq, ..., bo, num_heads)` returning `dx` and the eight
projection gradients, `mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b)` and `mlp_backward(dy, x, ff1_w, ff1_b, ff2_w,
ff2_b)` returning `dx` and the four gradients. Each backward takes the inputs its forward took. Arrays are float64
(NumPy's default); leave the inputs unchanged."""
SOLUTION = _FORWARD_SOLUTION + '''

def block_backward(dy, x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b,
                   num_heads):
    """dy, x: (B, T, d). Return dx and the 16 parameters' gradients, in the order of the arguments."""
    attn, mlp = (wq, bq, wk, bk, wv, bv, wo, bo), (ff1_w, ff1_b, ff2_w, ff2_b)
    n1 = layernorm_forward(x, ln1_g, ln1_b)  # the forward again: each backward takes its forward's inputs
    h = x + attention_forward(n1, *attn, num_heads)
    n2 = layernorm_forward(h, ln2_g, ln2_b)
    # y = h + mlp(n2): the skip hands dy to h, and the branch's gradient adds to it
    dn2, *dmlp = mlp_backward(dy, n2, *mlp)
    dh, dln2_g, dln2_b = layernorm_backward(dn2, h, ln2_g, ln2_b)
    dh = dh + dy
    # h = x + attn(n1): the same once more
    dn1, *dattn = attention_backward(dh, n1, *attn, num_heads)
    dx, dln1_g, dln1_b = layernorm_backward(dn1, x, ln1_g, ln1_b)
    dx = dx + dh
    return (dx, dln1_g, dln1_b, *dattn, dln2_g, dln2_b, *dmlp)
'''
HINTS = (
    "Recompute the forward's intermediate values first: n1 = LN1(x), h = x + attn(n1), n2 = LN2(h). Each given "
    "backward needs the inputs its forward had.",
    "Go backwards, the MLP sublayer first. y = h + mlp(n2): mlp_backward(dy, n2, ...) gives dn2 and the MLP's "
    "gradients, and layernorm_backward(dn2, h, ln2_g, ln2_b) carries dn2 back to h.",
    "h reaches y along two paths, the skip and the branch, so its gradient is the sum: the branch's plus dy itself. "
    "Assigning either one alone drops the other.",
    "The attention sublayer the same way: attention_backward from dh gives dn1, layernorm_backward takes it to x, "
    "and dx adds dh for the skip.",
)
MISTAKES = (
    Mistake("the MLP's skip gradient assigned instead of added", "dh = dh + dy", "dh = dy",
            "h feeds y twice, through the skip and through the MLP's branch: its gradient is the branch's plus dy. "
            "`dh = dy` throws the branch's gradient away; add them."),
    Mistake("the attention's skip gradient forgotten", "    dx = dx + dh\n", "",
            "x reaches h along the skip as well as through attention: add dh to the gradient the branch gives."),
    Mistake("the attention's skip gradient assigned instead of added", "dx = dx + dh", "dx = dh",
            "x feeds h twice, through the skip and through attention's branch: dx is the branch's gradient plus dh. "
            "`dx = dh` throws the branch's gradient away; add them."),
    Mistake("the MLP's norm taken back at the block's input", "layernorm_backward(dn2, h, ln2_g, ln2_b)",
            "layernorm_backward(dn2, x, ln2_g, ln2_b)",
            "LN2 read h, the stream after attention's residual add, so its backward needs h: "
            "layernorm_backward(dn2, h, ln2_g, ln2_b)."),
)
ROUND_OFF = ("dbk",)  # 0 up to round-off whatever the inputs: bk moves a row of scores evenly
GRADCHECK = Gradcheck(forward="block_forward", args=("x", *PARAMS, "num_heads"),
                      wrt=("x", *(None if name == "bk" else name for name in PARAMS)), upstream="dy")
# dbk is left out of the gradient check: the loss does not depend on the key bias (see attention-backward)


def reference(dy, x, *args):
    *values, num_heads = args
    config = config_for(x, values[2], values[12], num_heads)
    dx, grads = _block_backward(dy, _block_forward(x, block_params(values), 0, config)[1])
    return (dx, *(grads[f"b0.{name}"] for name in PARAMS))


CASES = (
    random_case("one sequence of 3 positions, d = 4, 2 heads, F = 8", seed=121, dy=normal(1, 3, 4),
                x=normal(1, 3, 4), **draws(4, 8), num_heads=2),
    random_case("a batch of shape (2, 4, 6) with 3 heads and F = 10", seed=122, dy=normal(2, 4, 6), x=normal(2, 4, 6),
                **draws(6, 10), num_heads=3),
    random_case("a single head, shape (2, 5, 4), F = 16", seed=123, dy=normal(2, 5, 4), x=normal(2, 5, 4),
                **draws(4, 16), num_heads=1),
    random_case("one long sequence, shape (1, 40, 8), 4 heads, F = 32", seed=124, dy=normal(1, 40, 8),
                x=normal(1, 40, 8), **draws(8, 32), num_heads=4),
    random_case("a stream of values in the hundreds, shape (2, 3, 4), 2 heads", seed=125, dy=normal(2, 3, 4),
                x=normal(2, 3, 4, scale=300.0), **draws(4, 8), num_heads=2),
)

DOMAIN = Domain(
    sizes=BLOCK_SIZES,
    make=lambda d: {"dy": d.normal(d.B, d.T, d.H * d.hs),
                    "x": d.normal(d.B, d.T, d.H * d.hs, scale=(1.0, 100.0), offset=(0.0, 10.0)),
                    **drawn_params(d, d.H * d.hs, d.F), "num_heads": d.H},
)
