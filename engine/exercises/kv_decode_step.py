"""Exercise: one decode step of multi-head attention with a KV cache: one new query over the cached keys and its own."""
import numpy as np

from ..attention import attention_forward as _attention_forward
from ..kv_cache import attention_step_forward as _attention_step_forward
from ._domain import Domain
from ._spec import Case, Mistake, case, normal, random_case

TITLE = "One decode step with a KV cache"
PAGE = "model/training.md"
ORDER = 5
KIND = "write"
FUNCTION = "attention_step"
OUTPUTS = ("y", "k", "v")
STATEMENT = """\
Write `attention_step(x, params, num_heads, past_k, past_v)`: causal self-attention of one new position over the
cached keys and values. `x` is the new position's input, shape `(B, 1, d)`; `params` is a dict of float64 arrays
`wq`, `wk`, `wv`, `wo` `(d, d)` and `bq`, `bk`, `bv`, `bo` `(d,)` (a projection is `x @ w + b`); `past_k` and
`past_v` are the keys and values of the `P` earlier positions, `(B, H, P, hs)` with `H = num_heads` and
`hs = d // H` (`P` may be 0). Project `x` to its query, key and value, split each into `H` heads of `hs`
channels (channel `h * hs + j` is channel `j` of head `h`), append the new key and value after the cached ones,
score the one query against all `P + 1` keys divided by \\(\\sqrt{hs}\\), softmax, weight the values, merge the
heads back and apply the output projection. Return `(y, k, v)`: `y` `(B, 1, d)` and the grown caches
`(B, H, P + 1, hs)`. Done right, `y` equals the last row of the full attention over all `P + 1` positions. Leave
the inputs unchanged."""
SOLUTION = '''\
def attention_step(x, params, num_heads, past_k, past_v):
    """x: (B, 1, d); params: wq, bq, wk, bk, wv, bv, wo, bo; past_k, past_v: (B, H, P, hs).
    Return (y (B, 1, d), k (B, H, P + 1, hs), v (B, H, P + 1, hs))."""
    B, _, d = x.shape
    hs = d // num_heads

    def heads(a):  # (B, 1, d) -> (B, H, 1, hs)
        return a.reshape(B, 1, num_heads, hs).transpose(0, 2, 1, 3)

    q = heads(x @ params["wq"] + params["bq"])
    k = np.concatenate([past_k, heads(x @ params["wk"] + params["bk"])], axis=2)
    v = np.concatenate([past_v, heads(x @ params["wv"] + params["bv"])], axis=2)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hs)  # (B, H, 1, P + 1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    merged = (weights @ v).transpose(0, 2, 1, 3).reshape(B, 1, d)
    return merged @ params["wo"] + params["bo"], k, v
'''
HINTS = (
    "Only the new position is computed: one query, one new key, one new value, each `(B, H, 1, hs)` after the "
    "split; the earlier keys and values come from the cache.",
    "`np.concatenate([past_k, new_k], axis=2)` appends along the positions.",
    "No mask: every cached position comes before the new one, so its query may read all P + 1 keys.",
)
MISTAKES = (
    Mistake("scaled by sqrt(d)", "/ np.sqrt(hs)", "/ np.sqrt(d)",
            "Scale the scores by 1/sqrt(hs), the size of one head's query and key, not by 1/sqrt(d)."),
    Mistake("a causal mask on the one new row", "    weights = np.exp(",
            "    scores = np.where(np.triu(np.ones(scores.shape[-2:]), 1) > 0, -np.inf, scores)\n    weights = np.exp(",
            "The new position comes after every cached one, so it reads all P + 1 keys: a decode step needs no mask "
            "(a causal mask sized for one row hides every key but the first)."),
    Mistake("the new key put first", "[past_k, heads(x @ params[\"wk\"] + params[\"bk\"])]",
            "[heads(x @ params[\"wk\"] + params[\"bk\"]), past_k]",
            "Append the new key after the cached ones: position P is the last, and each key must stay beside its "
            "value."),
)


def reference(x, params, num_heads, past_k, past_v):
    y, (k, v) = _attention_step_forward(x, params, num_heads, (past_k, past_v))
    return y, k, v


NAMES = ("wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo")


def _params(d, scale=0.5):
    return {name: normal(d, d, scale=scale) if name[0] == "w" else normal(d, scale=0.1) for name in NAMES}


def _caches(B, H, P, hs):
    return {"past_k": normal(B, H, P, hs), "past_v": normal(B, H, P, hs)}


def _from_full_attention(label, seed, B, T, d, H):
    """The cache of the first T - 1 positions of a sequence, made by the full attention forward (the engine's): the
    learner's step on position T - 1 must give the full attention's last row."""
    def make():
        rng = np.random.default_rng(seed)
        sequence = rng.standard_normal((B, T, d))  # (B, T, d)
        params = {name: rng.standard_normal((d, d)) * 0.5 if name[0] == "w" else rng.standard_normal(d) * 0.1
                  for name in NAMES}
        _, cache = _attention_forward(sequence, params, H)
        past_k, past_v = cache["sdp"]["k"][:, :, :-1], cache["sdp"]["v"][:, :, :-1]  # (B, H, T - 1, hs)
        return {"x": sequence[:, -1:], "params": params, "num_heads": H, "past_k": past_k.copy(),
                "past_v": past_v.copy()}
    return Case(label, make)


CASES = (
    case("d = 2, one head, identity projections, one cached position: keys (0, 1) and the new (1, 0)",
         x=[[[1.0, 0.0]]],
         params={"wq": [[1.0, 0.0], [0.0, 1.0]], "bq": [0.0, 0.0], "wk": [[1.0, 0.0], [0.0, 1.0]], "bk": [0.0, 0.0],
                 "wv": [[1.0, 0.0], [0.0, 1.0]], "bv": [0.0, 0.0], "wo": [[1.0, 0.0], [0.0, 1.0]], "bo": [0.0, 0.0]},
         num_heads=1, past_k=[[[[0.0, 1.0]]]], past_v=[[[[2.0, 4.0]]]]),
    _from_full_attention("position 5 of a random sequence (1, 6, 8), 2 heads, the cache made by the full attention",
                         601, B=1, T=6, d=8, H=2),
    random_case("a batch of 3, d = 12, 3 heads, 7 cached positions", seed=602, x=normal(3, 1, 12), params=_params(12),
                num_heads=3, **_caches(3, 3, 7, 4)),
    random_case("d = 5 in one head (not a power of two), 4 cached positions", seed=603, x=normal(2, 1, 5),
                params=_params(5), num_heads=1, **_caches(2, 1, 4, 5)),
    _from_full_attention("the 40th position of a batch of 2 sequences, d = 6, 3 heads, from the full attention", 604,
                         B=2, T=40, d=6, H=3),
    random_case("large inputs (about 30) whose scores are in the hundreds, 2 heads, 3 cached positions", seed=605,
                x=normal(1, 1, 4, scale=30.0), params=_params(4, scale=2.0), num_heads=2,
                past_k=normal(1, 2, 3, 2, scale=60.0), past_v=normal(1, 2, 3, 2)),
    random_case("the first position (P = 0): an empty cache, the query reads only its own key", seed=606,
                x=normal(2, 1, 8), params=_params(8), num_heads=4, **_caches(2, 4, 0, 2)),
)


def _drawn_step(d):
    """A batch of new positions, the weights of every projection and a cache of P positions (P may be 0)."""
    width = d.H * d.hs
    params = {name: d.normal(width, width, scale=(0.5, 2.0)) if name[0] == "w" else d.normal(width, scale=0.1)
              for name in NAMES}
    return {"x": d.normal(d.B, 1, width, scale=(1.0, 30.0)), "params": params, "num_heads": d.H,
            "past_k": d.normal(d.B, d.H, d.P, d.hs, scale=(1.0, 30.0)), "past_v": d.normal(d.B, d.H, d.P, d.hs)}


# The statement: any batch, H heads of hs channels (d = H * hs), P >= 0 cached positions.
DOMAIN = Domain(sizes={"B": range(1, 5), "H": (1, 2, 3, 4, 12), "hs": range(1, 65), "P": range(0, 129)},
                make=_drawn_step)
