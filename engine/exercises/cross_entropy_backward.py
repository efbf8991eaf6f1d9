"""Exercise: the fused backward of softmax and cross-entropy."""
import numpy as np

from ..loss import cross_entropy_backward as _cross_entropy_backward, cross_entropy_forward as _cross_entropy_forward
from ._spec import Gradcheck, Mistake, case, integers, normal, random_case

TITLE = "Cross-entropy backward"
PAGE = "layers/cross-entropy.md"
ORDER = 2
KIND = "write"
FUNCTION = "cross_entropy_backward"
OUTPUTS = ("dlogits",)
STATEMENT = """\
`cross_entropy(logits, targets)` is given: the mean over the `N` positions of
\\(\\log\\sum_j e^{z_j} - z_t\\), where `z` is the position's row of `logits` `(..., V)` and `t` its target id in
`targets` (integers, shape `(...)`). Write `cross_entropy_backward(logits, targets)` returning `dlogits`, the
shape of `logits`, the gradient of that mean loss. Derive it; the hints go one step at a time and the last one
gives the formula. Logits may be in the thousands. Arrays are float64 (NumPy's default); leave the inputs
unchanged."""
SOLUTION = '''\
def cross_entropy(logits, targets):
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return float((lse - np.take_along_axis(logits, targets[..., None], axis=-1)).mean())


def cross_entropy_backward(logits, targets):
    """logits: (..., V), targets: (...) ints. Return dlogits (..., V)."""
    lse = logits.max(axis=-1, keepdims=True)
    lse = lse + np.log(np.exp(logits - lse).sum(axis=-1, keepdims=True))  # log-sum-exp, the row's maximum first
    p = np.exp(logits - lse)  # the softmax
    onehot = np.zeros_like(p)
    np.put_along_axis(onehot, targets[..., None], 1.0, axis=-1)
    return (p - onehot) * (1.0 / targets.size)
'''
HINTS = (
    "Take one position first: its loss is log(sum_j exp(z_j)) - z_t.",
    "The derivative of log(sum_j exp(z_j)) with respect to z_i is exp(z_i) / sum_j exp(z_j), the softmax; the "
    "derivative of -z_t is -1 at i = t and 0 elsewhere.",
    "The loss is a mean over N = targets.size positions, so each position's gradient is divided by N. Compute the "
    "softmax with the row's maximum subtracted, or logits in the thousands overflow.",
    "dlogits = (softmax(logits) - onehot(targets)) / N; `np.put_along_axis` (or indexing) puts the ones at the "
    "targets.",
)
MISTAKES = (
    Mistake("mean forgotten", "return (p - onehot) * (1.0 / targets.size)", "return p - onehot",
            "The loss averages over N positions, so its gradient is divided by N = targets.size."),
    Mistake("sign flipped", "(p - onehot)", "(onehot - p)",
            "The gradient is softmax minus onehot: raising the target's logit must lower the loss."),
    Mistake("divided by V", "* (1.0 / targets.size)", "/ p.shape[-1]",
            "Divide by the number of positions N = targets.size (the loss is a mean over positions), not by V."),
    Mistake("no maximum subtracted",
            "    lse = logits.max(axis=-1, keepdims=True)\n    lse = lse + np.log(np.exp(logits - lse)",
            "    lse = np.log(np.exp(logits)",
            "exp overflows to inf for logits above ~709, and every probability of that row comes out 0 (or nan): "
            "subtract each row's maximum before the exponential (the softmax does not change)."),
)
GRADCHECK = Gradcheck(forward="cross_entropy", args=("logits", "targets"), wrt=("logits",), upstream=None)


def reference(logits, targets):
    return _cross_entropy_backward(1.0, _cross_entropy_forward(logits, targets)[1])


CASES = (
    case("logits [[2, 1, 0], [0, 0, 0]] with targets [0, 2]", logits=[[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
         targets=np.array([0, 2])),
    random_case("random logits (2, 3, 5) with targets (2, 3)", seed=30, logits=normal(2, 3, 5),
                targets=integers(5, 2, 3)),
    random_case("one position: logits of shape (7,) and a 0-d target", seed=42, logits=normal(7),
                targets=lambda rng: np.array(rng.integers(0, 7))),
    random_case("logits in the thousands (4 positions, V = 6)", seed=43, logits=normal(4, 6, scale=1000.0),
                targets=integers(6, 4)),
)
