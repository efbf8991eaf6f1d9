"""Exercise: one head of causal scaled dot-product attention."""
from ..attention import scaled_dot_product_forward as _scaled_dot_product_forward
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "One attention head"
PAGE = "layers/attention.md"
ORDER = 2
KIND = "write"
FUNCTION = "attention_head"
OUTPUTS = ("out",)
STATEMENT = """\
Write `attention_head(q, k, v)` for queries, keys and values of shape `(..., T, hs)`, returning `out` of the same
shape: scores \\(q k^\\top / \\sqrt{hs}\\) `(..., T, T)`, the future masked out (score `-inf` where key `j > i`),
a softmax over the keys (last axis), then the weighted sum of the values. Scores can reach the thousands, so
subtract each row's maximum before `np.exp`. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def attention_head(q, k, v):
    """q, k, v: (..., T, hs). Return out (..., T, hs)."""
    T, hs = q.shape[-2:]
    scores = q @ np.swapaxes(k, -1, -2) * (1.0 / np.sqrt(hs))
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v
'''
HINTS = (
    "Transpose only the last two axes of k (`np.swapaxes(k, -1, -2)`) so leading batch axes stay put.",
    "Divide the scores by sqrt(hs), the head size, before the softmax.",
    "Mask before the softmax with `np.where(mask, scores, -np.inf)`; a stable softmax handles the -inf.",
)
MISTAKES = (
    Mistake("no scaling", "q @ np.swapaxes(k, -1, -2) * (1.0 / np.sqrt(hs))", "q @ np.swapaxes(k, -1, -2)",
            "The scores must be divided by sqrt(hs); without it their spread grows with the head size and the "
            "softmax saturates."),
    Mistake("divided by hs", "* (1.0 / np.sqrt(hs))", "/ hs",
            "Divide by the square root of the head size, `np.sqrt(hs)`, not by hs itself."),
    Mistake("no mask", "    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)\n", "",
            "Every position attends to the future here: set the scores above the diagonal to -inf before the "
            "softmax."),
    Mistake("k.T on batched arrays", "q @ np.swapaxes(k, -1, -2)", "q @ k.T",
            "On a batched k of shape (B, T, hs), `k.T` reverses *all* the axes, the batch axis included. Swap only "
            "the last two: `np.swapaxes(k, -1, -2)`."),
)


reference = first_output(_scaled_dot_product_forward)


CASES = (
    case("3 positions with head size 2", q=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
         k=[[1.0, 0.0], [0.0, 2.0], [-1.0, 1.0]], v=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    random_case("random q, k, v of shape (5, 3)", seed=18, q=normal(5, 3), k=normal(5, 3), v=normal(5, 3)),
    random_case("a batch of shape (3, 3, 3): 3 sequences, T = 3, hs = 3, so `k.T` has the right shape", seed=55,
                q=normal(3, 3, 3), k=normal(3, 3, 3), v=normal(3, 3, 3)),
    random_case("a batch of shape (2, 4, 6): 2 sequences, T = 4, hs = 6", seed=19, q=normal(2, 4, 6),
                k=normal(2, 4, 6), v=normal(2, 4, 6)),
    random_case("a long sequence, T = 40, hs = 4 (longer than a small fixed mask)", seed=56, q=normal(40, 4),
                k=normal(40, 4), v=normal(40, 4)),
    random_case("2 sequences of 2 heads, shape (2, 2, 5, 3), large scores", seed=57, q=normal(2, 2, 5, 3, scale=30.0),
                k=normal(2, 2, 5, 3, scale=30.0), v=normal(2, 2, 5, 3)),
    random_case("a single position, T = 1", seed=58, q=normal(1, 4), k=normal(1, 4), v=normal(1, 4)),
)
