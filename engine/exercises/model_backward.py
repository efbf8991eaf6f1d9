"""Exercise: the whole model's backward chain, from the logits' gradient to the embedding tables."""
import numpy as np

from ..config import GPTConfig as _GPTConfig
from ..model import backward as _backward, forward as _forward
from ._spec import Gradcheck, Mistake, integers, normal, random_case
from ._domain import Domain
from .block_forward import PARAMS, draws, drawn_params

TITLE = "The model's backward chain"
PAGE = "model/model.md"
ORDER = 5
KIND = "write"
FUNCTION = "model_backward"
HEAD = ("lnf_g", "lnf_b", "head_w", "head_b")
NAMES = ("tok_emb", "pos_emb", *PARAMS, *HEAD)  # every parameter, in the order of the arguments
OUTPUTS = tuple(f"d{name}" for name in NAMES)
GIVEN = ("layernorm-forward", "layernorm-backward", "block-forward", "block-backward")
STATEMENT = """\
The whole model, for token ids `ids` `(B, T)`: \\(x_0\\) = `tok_emb[ids] + pos_emb[:T]`, then
\\(x_{l+1}\\) = `block_forward(x_l, ...)` for each of the L blocks, then `layernorm_forward(x_L, lnf_g, lnf_b)` and
the head `@ head_w + head_b`, giving logits `(B, T, V)` (`model_forward`, given). The blocks' parameters come
stacked over the blocks, as llm.c stores them: `ln1_g` is `(L, d)`, `wq` `(L, d, d)`, `ff1_w` `(L, d, F)`, and so
on; block l uses `ln1_g[l]`, `wq[l]`, .... Write `model_backward(dlogits, ids, tok_emb, pos_emb, ln1_g, ..., ff2_b,
lnf_g, lnf_b, head_w, head_b, num_heads)` returning the gradient of every parameter, in the order of the arguments
and with its shape (`dtok_emb, dpos_emb, dln1_g, ..., dhead_b`: 22 arrays), from `dlogits` `(B, T, V)`. Defined for
you by their names (the solutions; in *Build your GPT*, yours where you passed them): `layernorm_forward`,
`layernorm_backward(dy, x, gamma, beta)`, `block_forward(x, <16 parameters>, num_heads)` and
`block_backward(dy, x, <16 parameters>, num_heads)` returning `dx` and the 16 gradients. `pos_emb` may have more
rows than T. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def model_forward(ids, tok_emb, pos_emb, *args):
    *stacked, lnf_g, lnf_b, head_w, head_b, num_heads = args
    x = tok_emb[ids] + pos_emb[:ids.shape[1]]
    for l in range(stacked[0].shape[0]):
        x = block_forward(x, *(p[l] for p in stacked), num_heads)
    return layernorm_forward(x, lnf_g, lnf_b) @ head_w + head_b


def model_backward(dlogits, ids, tok_emb, pos_emb, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b,
                   ff1_w, ff1_b, ff2_w, ff2_b, lnf_g, lnf_b, head_w, head_b, num_heads):
    """dlogits: (B, T, V); ids: (B, T); block parameters stacked over L. Return every parameter's gradient."""
    stacked = (ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b)
    L, T = ln1_g.shape[0], ids.shape[1]
    xs = [tok_emb[ids] + pos_emb[:T]]  # the forward again, keeping every block's input
    for l in range(L):
        xs.append(block_forward(xs[-1], *(p[l] for p in stacked), num_heads))
    n = layernorm_forward(xs[-1], lnf_g, lnf_b)  # (B, T, d)
    rows = dlogits.reshape(-1, head_w.shape[1])  # (B*T, V): the head is a linear layer, each position one row
    dhead_w = n.reshape(rows.shape[0], -1).T @ rows
    dhead_b = rows.sum(axis=0)
    dn = (rows @ head_w.T).reshape(xs[-1].shape)
    dx, dlnf_g, dlnf_b = layernorm_backward(dn, xs[-1], lnf_g, lnf_b)
    dstacked = [np.zeros_like(p) for p in stacked]
    for l in reversed(range(L)):  # the last block first, each from the input it had
        dx, *grads = block_backward(dx, xs[l], *(p[l] for p in stacked), num_heads)
        for dp, g in zip(dstacked, grads):
            dp[l] = g
    dtok_emb = np.zeros_like(tok_emb)
    np.add.at(dtok_emb, ids, dx)  # an id used several times collects every one of its rows
    dpos_emb = np.zeros_like(pos_emb)
    dpos_emb[:T] = dx.sum(axis=0)  # every sequence of the batch used the same positions
    return (dtok_emb, dpos_emb, *dstacked, dlnf_g, dlnf_b, dhead_w, dhead_b)
'''
HINTS = (
    "Run the forward again first and keep what each backward needs: the embedding's output x_0, every block's "
    "input x_l, and the final norm's output (the head's input).",
    "Then the forward's calls in reverse. The head is a linear layer: dhead_w sums n^T dlogits over every position "
    "of every sequence, dhead_b sums dlogits, and dlogits @ head_w.T goes back into the final norm, whose backward "
    "needs its own input x_L.",
    "The blocks last first: block l's backward takes the gradient the block after it returned and block l's own "
    "input x_l. Put each block's 16 gradients at index l of the stacked gradients.",
    "The embeddings last: every occurrence of an id adds its row of dx to that id's row of dtok_emb "
    "(`np.add.at`), and dpos_emb's first T rows are dx summed over the batch; rows past T stay 0.",
)
MISTAKES = (
    Mistake("+= with repeated ids", "np.add.at(dtok_emb, ids, dx)", "dtok_emb[ids] += dx",
            "`dtok_emb[ids] += dx` writes a repeated id once, so only one of its gradient rows survives: "
            "`np.add.at(dtok_emb, ids, dx)` adds every occurrence."),
    Mistake("blocks taken back in forward order", "for l in reversed(range(L)):", "for l in range(L):",
            "The backward reads the forward in reverse: the gradient from the final norm reaches the last block "
            "first, so run l from L - 1 down to 0."),
    Mistake("positions' gradient from one sequence", "dpos_emb[:T] = dx.sum(axis=0)", "dpos_emb[:T] = dx[0]",
            "Every sequence of the batch adds the same position rows, so their gradients add too: sum dx over the "
            "batch axis."),
    Mistake("final norm taken back at its output", "layernorm_backward(dn, xs[-1], lnf_g, lnf_b)",
            "layernorm_backward(dn, n, lnf_g, lnf_b)",
            "A backward takes its forward's input: the final norm read x_L, the last block's output, not its own "
            "output n."),
)
ROUND_OFF = ("dbk",)  # 0 up to round-off whatever the inputs: bk moves a row of scores evenly
GRADCHECK = Gradcheck(forward="model_forward", args=("ids", *NAMES, "num_heads"),
                      wrt=tuple(None if name == "bk" else name for name in NAMES), upstream="dlogits")
# dbk is left out of the gradient check: the loss does not depend on the key bias (see attention-backward)


def reference(dlogits, ids, *args):
    *values, num_heads = args
    arrays = dict(zip(NAMES, values))
    L, (T_max, d), (V,) = arrays["ln1_g"].shape[0], arrays["pos_emb"].shape, arrays["head_b"].shape
    config = _GPTConfig(vocab_size=V, seq_len=T_max, emb_dim=d, num_heads=num_heads, ff_dim=arrays["ff1_w"].shape[2],
                        num_layers=L, norm="layernorm", activation="gelu", placement="pre", dropout=0.0)
    params = {name: arrays[name] for name in ("tok_emb", "pos_emb", *HEAD)}
    params.update({f"b{l}.{name}": arrays[name][l] for l in range(L) for name in PARAMS})
    grads = _backward(dlogits, _forward(params, ids, config)[1])
    return tuple(np.stack([grads[f"b{l}.{name}"] for l in range(L)]) if name in PARAMS else grads[name]
                 for name in NAMES)


def _stacked(draw, L):
    """A draw of L blocks' values of one parameter, stacked on a new first axis."""
    return lambda rng: np.stack([draw(rng) for _ in range(L)])


def _model(B, T, T_max, V, d, F, L):
    """A random case's inputs: dlogits, ids and every parameter, L blocks stacked."""
    return {"dlogits": normal(B, T, V), "ids": integers(V, B, T), "tok_emb": normal(V, d),
            "pos_emb": normal(T_max, d, scale=0.5), **{name: _stacked(draw, L) for name, draw in draws(d, F).items()},
            "lnf_g": lambda rng: 1.0 + 0.3 * rng.standard_normal(d), "lnf_b": normal(d, scale=0.1),
            "head_w": normal(d, V, scale=0.5), "head_b": normal(V, scale=0.1)}


CASES = (
    random_case("2 sequences of 2 ids out of V = 3, 2 blocks, d = 3, one head, F = 4, 3 positions in pos_emb",
                seed=130, **_model(2, 2, 3, 3, 3, 4, 2), num_heads=1),
    random_case("2 sequences of 3 ids out of V = 5 (so an id repeats), 2 blocks, d = 4, 2 heads, F = 8, 4 positions "
                "in pos_emb", seed=131, **_model(2, 3, 4, 5, 4, 8, 2), num_heads=2),
    random_case("3 sequences of 4 ids, V = 7, 3 blocks, d = 6, 3 heads, F = 12, T equal to pos_emb's rows", seed=132,
                **_model(3, 4, 4, 7, 6, 12, 3), num_heads=3),
    random_case("one sequence of 5 ids, V = 20 (most ids unused), a single block and head, d = 4", seed=133,
                **_model(1, 5, 8, 20, 4, 8, 1), num_heads=1),
)


def _drawn_model(d):
    """A drawn case: L blocks' parameters stacked, ids over the whole vocabulary, pos_emb with spare rows."""
    n = d.H * d.hs
    blocks = [drawn_params(d, n, d.F) for _ in range(d.L)]
    return {"dlogits": d.normal(d.B, d.T, d.V), "ids": d.integers(0, d.V, d.B, d.T), "tok_emb": d.normal(d.V, n),
            "pos_emb": d.normal(d.T + d.spare, n, scale=(0.1, 1.0)),
            **{name: np.stack([block[name] for block in blocks]) for name in PARAMS},
            "lnf_g": d.normal(n, scale=0.3, offset=1.0), "lnf_b": d.normal(n, scale=0.1),
            "head_w": d.normal(n, d.V, scale=(0.5, 2.0)), "head_b": d.normal(d.V, scale=0.1), "num_heads": d.H}


# The statement: ids (B, T) over V, pos_emb with T or more rows, L stacked blocks, d = num_heads * hs.
DOMAIN = Domain(
    sizes={"B": range(1, 4), "T": range(1, 9), "spare": range(0, 4), "V": range(1, 13), "L": range(1, 4),
           "H": range(1, 3), "hs": range(1, 5), "F": range(1, 17)},
    make=_drawn_model, budget=1 << 13,
)
