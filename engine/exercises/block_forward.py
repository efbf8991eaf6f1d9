"""Exercise: a pre-LN transformer block, forward, composed from the learner's own layers."""
from ..config import GPTConfig as _GPTConfig
from ..model import block_forward as _block_forward
from ._domain import Domain
from ._spec import Mistake, normal, random_case

TITLE = "A pre-LN block, forward"
PAGE = "model/model.md"
ORDER = 3
KIND = "write"
FUNCTION = "block_forward"
OUTPUTS = ("y",)
GIVEN = ("layernorm-forward", "attention-forward", "mlp-forward")
# The block's parameters in the order of the arguments (and of block_backward's gradients), as engine.model names
# them after the block's prefix ``b{i}.``.
PARAMS = ("ln1_g", "ln1_b", "wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo", "ln2_g", "ln2_b", "ff1_w", "ff1_b",
          "ff2_w", "ff2_b")
STATEMENT = """\
Write `block_forward(x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b,
num_heads)`, one pre-LN block on `x` `(B, T, d)`: first \\(h = x + \\mathrm{attn}(\\mathrm{LN}_1(x))\\), then
\\(y = h + \\mathrm{mlp}(\\mathrm{LN}_2(h))\\). Return `y` `(B, T, d)`. Your earlier functions are defined for you,
by their names (here the exercises' solutions; in *Build your GPT*, yours): `layernorm_forward(x, gamma, beta)`,
`attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads)` and `mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b)`.
Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def block_forward(x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b,
                  num_heads):
    """x: (B, T, d). Return y (B, T, d)."""
    h = x + attention_forward(layernorm_forward(x, ln1_g, ln1_b), wq, bq, wk, bk, wv, bv, wo, bo, num_heads)
    return h + mlp_forward(layernorm_forward(h, ln2_g, ln2_b), ff1_w, ff1_b, ff2_w, ff2_b)
'''
HINTS = (
    "Two sublayers, each `input + branch(norm(input))`: the branch reads the normalised stream, the skip adds the "
    "stream itself.",
    "The MLP's sublayer starts from h, the stream after attention's residual add, with its own norm ln2.",
)
MISTAKES = (
    Mistake("no skip around attention", "h = x + attention_forward(", "h = attention_forward(",
            "Each sublayer adds its branch to the stream: h = x + attention(LN1(x)). Without the `x +` the block "
            "forgets its input."),
    Mistake("no skip around the MLP", "return h + mlp_forward(", "return mlp_forward(",
            "The MLP's sublayer is residual too: y = h + mlp(LN2(h))."),
    Mistake("the MLP's norm on the block's input", "layernorm_forward(h, ln2_g, ln2_b)",
            "layernorm_forward(x, ln2_g, ln2_b)",
            "The sublayers run one after the other: the MLP reads LN2(h), the stream after attention's residual "
            "add, not LN2(x)."),
    Mistake("the first norm's parameters twice", "layernorm_forward(h, ln2_g, ln2_b)",
            "layernorm_forward(h, ln1_g, ln1_b)",
            "Each sublayer has its own norm: the MLP's uses ln2_g and ln2_b."),
)


def config_for(x, wq, ff1_w, num_heads):
    """The engine configuration of a block with these sizes (pre-LN, LayerNorm, GELU, no dropout)."""
    return _GPTConfig(emb_dim=wq.shape[0], num_heads=num_heads, ff_dim=ff1_w.shape[1], seq_len=x.shape[1],
                      norm="layernorm", activation="gelu", placement="pre", dropout=0.0)


def block_params(values):
    """engine.model's parameter dict of block 0 from the values in ``PARAMS`` order."""
    return {f"b0.{name}": value for name, value in zip(PARAMS, values)}


def reference(x, *args):
    *values, num_heads = args
    config = config_for(x, values[2], values[12], num_heads)
    return _block_forward(x, block_params(values), 0, config)[0]


def draws(d, F, gain_scale=0.3):
    """A random case's block parameters in ``PARAMS`` order: gains near 1, weights scaled by 1/sqrt(fan-in)."""
    def gain(rng):
        return 1.0 + gain_scale * rng.standard_normal(d)
    shapes = {"w": (d, d), "ff1_w": (d, F), "ff1_b": (F,), "ff2_w": (F, d)}
    made = {}
    for name in PARAMS:
        if name.endswith("_g"):
            made[name] = gain
        else:
            shape = shapes.get(name, shapes["w"] if name[0] == "w" else (d,))
            made[name] = normal(*shape, scale=1.0 / shape[0] ** 0.5 if len(shape) == 2 else 0.1)
    return made


CASES = (
    random_case("one sequence of 3 positions, d = 4, 2 heads, F = 8", seed=111, x=normal(1, 3, 4), **draws(4, 8),
                num_heads=2),
    random_case("a batch of shape (2, 4, 6) with 3 heads and F = 10", seed=112, x=normal(2, 4, 6), **draws(6, 10),
                num_heads=3),
    random_case("a single head, shape (2, 5, 4), F = 16", seed=113, x=normal(2, 5, 4), **draws(4, 16), num_heads=1),
    random_case("one long sequence, shape (1, 40, 8), 4 heads, F = 32", seed=114, x=normal(1, 40, 8), **draws(8, 32),
                num_heads=4),
    random_case("a stream of values in the hundreds, shape (2, 3, 4), 2 heads", seed=115,
                x=normal(2, 3, 4, scale=300.0), **draws(4, 8), num_heads=2),
)


def drawn_params(d, n, F):
    """A drawn case's block parameters in ``PARAMS`` order, for n channels and a hidden width F."""
    shapes = {"ff1_w": (n, F), "ff1_b": (F,), "ff2_w": (F, n)}
    made = {}
    for name in PARAMS:
        shape = shapes.get(name, (n, n) if name[0] == "w" else (n,))
        if name.endswith("_g"):
            made[name] = d.normal(n, scale=(0.3, 1.0), offset=(1.0, 0.0))
        elif len(shape) == 2:
            made[name] = d.normal(*shape, scale=(1.0 / shape[0] ** 0.5, 3.0 / shape[0] ** 0.5))
        else:
            made[name] = d.normal(*shape, scale=(0.0, 0.1, 1.0))
    return made


# The statement: x (B, T, d) with d = num_heads * hs, any hidden width; a residual stream of any size.
BLOCK_SIZES = {"B": range(1, 4), "T": range(1, 17), "H": range(1, 5), "hs": range(1, 9), "F": range(1, 33)}
DOMAIN = Domain(
    sizes=BLOCK_SIZES,
    make=lambda d: {"x": d.normal(d.B, d.T, d.H * d.hs, scale=(1.0, 100.0), offset=(0.0, 10.0)),
                    **drawn_params(d, d.H * d.hs, d.F), "num_heads": d.H},
)
