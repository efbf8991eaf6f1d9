"""Exercise: multi-head causal self-attention, forward: four projections, the split into heads and the merge."""
from ..attention import attention_forward as _attention_forward
from ._domain import Domain
from ._spec import Mistake, case, normal, random_case

TITLE = "Multi-head attention, forward"
PAGE = "layers/attention.md"
ORDER = 5
KIND = "write"
FUNCTION = "attention_forward"
OUTPUTS = ("y",)
GIVEN = ("attention-head",)
STATEMENT = """\
Write `attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads)` for `x` `(B, T, d)`: project `x` to queries,
keys and values (`x @ wq + bq`, and so on; every `w` is `(d, d)`, every `b` is `(d,)`), split each into `num_heads`
heads of size `hs = d / num_heads` (head h owns channels `h*hs` to `(h+1)*hs - 1`), run one causal head on each,
merge the heads' outputs back to `(B, T, d)` side by side and apply the output projection `wo`, `bo`. Return `y`
`(B, T, d)`. `attention_head(q, k, v)` is defined for you (the solution of *One attention head*, for any leading
axes): call it once on all heads at the same time. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    """x: (B, T, d); wq, wk, wv, wo: (d, d); bq, bk, bv, bo: (d,). Return y (B, T, d)."""
    B, T, d = x.shape
    hs = d // num_heads

    def split(a):  # (B, T, d) -> (B, H, T, hs): the channels cut into heads, then heads moved before time
        return a.reshape(B, T, num_heads, hs).transpose(0, 2, 1, 3)

    heads = attention_head(split(x @ wq + bq), split(x @ wk + bk), split(x @ wv + bv))  # (B, H, T, hs)
    merged = heads.transpose(0, 2, 1, 3).reshape(B, T, d)
    return merged @ wo + bo
'''
HINTS = (
    "Project first: q = x @ wq + bq, k and v the same way, each (B, T, d).",
    "Split the channels, not the sequence: reshape (B, T, d) to (B, T, H, hs), then move the head axis before "
    "time with transpose(0, 2, 1, 3), giving (B, H, T, hs). attention_head treats (B, H) as batch axes.",
    "Merge by undoing the split in reverse order: transpose(0, 2, 1, 3) back to (B, T, H, hs), then reshape to "
    "(B, T, d); finally y = merged @ wo + bo.",
)
MISTAKES = (
    Mistake("heads split with a plain reshape", "a.reshape(B, T, num_heads, hs).transpose(0, 2, 1, 3)",
            "a.reshape(B, num_heads, T, hs)",
            "`reshape(B, H, T, hs)` cuts the flattened (T, d) block of each sequence into H pieces, so a head gets "
            "whole positions, not its own channels. Reshape to (B, T, H, hs) and then transpose(0, 2, 1, 3)."),
    Mistake("heads merged with a plain reshape", "heads.transpose(0, 2, 1, 3).reshape(B, T, d)",
            "heads.reshape(B, T, d)",
            "The heads' output is (B, H, T, hs): move the head axis back after time with transpose(0, 2, 1, 3) "
            "before reshaping to (B, T, d), or positions and heads get mixed."),
    Mistake("heads merged with the wrong transpose", "heads.transpose(0, 2, 1, 3).reshape(B, T, d)",
            "heads.transpose(0, 2, 3, 1).reshape(B, T, d)",
            "transpose(0, 2, 3, 1) gives (B, T, hs, H), which interleaves the heads' channels. The merge must "
            "give (B, T, H, hs), head after head: transpose(0, 2, 1, 3)."),
    Mistake("values projected with the keys' weights", "split(x @ wv + bv)", "split(x @ wk + bk)",
            "The values have their own projection: v = x @ wv + bv, not the keys' wk and bk."),
    Mistake("no output projection", "return merged @ wo + bo", "return merged",
            "The merged heads still go through the output projection: y = merged @ wo + bo."),
)


def reference(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    params = {"wq": wq, "bq": bq, "wk": wk, "bk": bk, "wv": wv, "bv": bv, "wo": wo, "bo": bo}
    return _attention_forward(x, params, num_heads)[0]


def random_weights(d, scale=1.0):
    """A random case's projections, in the order of the function's arguments."""
    return {name: normal(d, d, scale=scale / d ** 0.5) if name.startswith("w") else normal(d, scale=0.1)
            for name in ("wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo")}


IDENTITY = {"wq": [[1.0, 0.0], [0.0, 1.0]], "bq": [0.0, 0.0], "wk": [[1.0, 0.0], [0.0, 1.0]], "bk": [0.0, 0.0],
             "wv": [[1.0, 0.0], [0.0, 1.0]], "bv": [0.0, 0.0], "wo": [[1.0, 0.0], [0.0, 1.0]], "bo": [0.0, 0.0]}

CASES = (
    case("one sequence of 2 positions, d = 2, 2 heads of size 1, every projection the identity",
         x=[[[1.0, 0.0], [2.0, 1.0]]], **IDENTITY, num_heads=2),
    random_case("a batch of shape (2, 4, 6) with 3 heads of size 2", seed=91, x=normal(2, 4, 6), **random_weights(6),
                num_heads=3),
    random_case("a batch of shape (3, 3, 6) with 2 heads of size 3: T = hs, so shapes alone cannot tell a wrong "
                "merge", seed=92, x=normal(3, 3, 6), **random_weights(6), num_heads=2),
    random_case("a single head, shape (2, 5, 4): no split at all", seed=93, x=normal(2, 5, 4), **random_weights(4),
                num_heads=1),
    random_case("one long sequence, shape (1, 40, 4), 2 heads", seed=94, x=normal(1, 40, 4), **random_weights(4),
                num_heads=2),
    random_case("large scores, shape (2, 6, 8), 4 heads", seed=95, x=normal(2, 6, 8, scale=10.0),
                **random_weights(8, scale=3.0), num_heads=4),
)


def drawn_weights(d, n):
    """A drawn case's projections for n channels, in the order of the function's arguments."""
    return {name: d.normal(n, n, scale=(1.0 / n ** 0.5, 3.0 / n ** 0.5)) if name[0] == "w"
            else d.normal(n, scale=(0.0, 0.1, 1.0)) for name in ("wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo")}


# The statement: x (B, T, d) with d = num_heads * hs, any number of heads dividing d; large inputs allowed.
ATTENTION_SIZES = {"B": range(1, 5), "T": range(1, 33), "H": range(1, 5), "hs": range(1, 9)}
DOMAIN = Domain(
    sizes=ATTENTION_SIZES,
    make=lambda d: {"x": d.normal(d.B, d.T, d.H * d.hs, scale=(1.0, 10.0)), **drawn_weights(d, d.H * d.hs),
                    "num_heads": d.H},
)
