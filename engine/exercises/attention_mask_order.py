"""Exercise (fix the bug): the causal mask applied after the softmax instead of before it."""
import numpy as np

from ..attention import causal_mask as _causal_mask
from ..softmax import softmax_forward as _softmax_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, normal, random_case

TITLE = "Mask before the softmax"
PAGE = "layers/attention.md"
ORDER = 3
KIND = "fix"
FUNCTION = "causal_weights"
OUTPUTS = ("weights",)
STATEMENT = """\
`causal_weights(scores)` should turn scaled attention scores `(..., T, T)` into causal attention weights: every
row a probability distribution over the keys `j <= i`, with weight exactly 0 on the future. The code below zeroes
the future, but its rows no longer do what attention weights must. Find out why and fix it. Scores are float64
(NumPy's default); leave them unchanged."""
SOLUTION = '''\
def causal_weights(scores):
    """scores: (..., T, T). Return weights of the same shape; row i sums to 1 over keys j <= i."""
    T = scores.shape[-1]
    allowed = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''
HINTS = (
    "Add up one row of the returned weights.",
    "The softmax shared the probability among all keys, future included; zeroing afterwards just removes some.",
    "Give the future a score of -inf *before* the softmax: exp(-inf) = 0, and the rest still sums to 1.",
)
MISTAKES = (
    Mistake("mask after the softmax",
            "    scores = np.where(allowed, scores, -np.inf)\n"
            "    e = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
            "    return e / e.sum(axis=-1, keepdims=True)\n",
            "    e = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
            "    weights = e / e.sum(axis=-1, keepdims=True)\n"
            "    return np.where(allowed, weights, 0.0)\n",
            "Masking after the softmax zeroes the future, but the rows no longer sum to 1: part of each row's "
            "probability went to keys that were then removed. Set the future's scores to -inf before the softmax."),
    Mistake("masked with 0", "np.where(allowed, scores, -np.inf)", "np.where(allowed, scores, 0.0)",
            "A masked score of 0 still gets weight exp(0 - max) > 0; only -inf gives weight exactly 0."),
)


def reference(scores):
    T = scores.shape[-1]
    return _softmax_forward(np.where(_causal_mask(T), scores, -np.inf))[0]


CASES = (
    case("the 3×3 scores [[1, 2, 3], [0, 0, 0], [3, 2, 1]]",
         scores=[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [3.0, 2.0, 1.0]]),
    random_case("random scores of shape (2, 2, 5, 5)", seed=20, scores=normal(2, 2, 5, 5, scale=2.0)),
    random_case("a long sequence, T = 40 (longer than a small fixed mask)", seed=59, scores=normal(40, 40)),
    case("a single position, T = 1", scores=[[3.0]]),
)

# The statement: scaled scores (..., T, T), float64. It promises no range, so scores stay those of attention (a few
# units apart), shifted far at times (a softmax must still work there).
DOMAIN = Domain(
    sizes={**LEADING, "T": range(1, 129)},
    make=lambda d: {"scores": d.normal(*d.lead(), d.T, d.T, scale=(1.0, 5.0), offset=(0.0, 1e3, -1e3))},
)
