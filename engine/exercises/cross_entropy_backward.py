"""Exercise: the fused backward of softmax and cross-entropy."""
import numpy as np

from ..loss import cross_entropy_backward as _cross_entropy_backward, cross_entropy_forward as _cross_entropy_forward
from ._spec import Gradcheck, Mistake, case, integers, normal, random_case, starter

TITLE = "Cross-entropy backward"
PAGE = "layers/cross-entropy.md"
ORDER = 2
KIND = "write"
FUNCTION = "cross_entropy_backward"
OUTPUTS = ("dlogits",)
STATEMENT = """\
`cross_entropy(logits, targets)` (the mean loss) is given. Write `cross_entropy_backward(logits, targets)`
returning `dlogits` `(..., V)`, the gradient of that mean loss: softmax and log together simplify to
\\((\\mathrm{softmax}(\\text{logits}) - \\text{onehot}(\\text{targets})) / N\\) with `N` the number of positions."""
SOLUTION = '''\
def cross_entropy(logits, targets):
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return float((lse - np.take_along_axis(logits, targets[..., None], axis=-1)).mean())


def cross_entropy_backward(logits, targets):
    """logits: (..., V), targets: (...) ints. Return dlogits (..., V)."""
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    onehot = np.zeros_like(p)
    np.put_along_axis(onehot, targets[..., None], 1.0, axis=-1)
    return (p - onehot) / targets.size
'''
STARTER = starter(SOLUTION, FUNCTION)
HINTS = (
    "Compute the probabilities with a stable softmax first.",
    "Subtract 1 at each position's target entry (a one-hot array, or `np.put_along_axis`).",
    "The loss is a mean over N = targets.size positions, so every gradient is divided by N.",
)
MISTAKES = (
    Mistake("mean forgotten", "return (p - onehot) / targets.size", "return p - onehot",
            "The loss averages over N positions, so its gradient is divided by N = targets.size."),
    Mistake("sign flipped", "(p - onehot)", "(onehot - p)",
            "The gradient is softmax minus onehot: raising the target's logit must lower the loss."),
    Mistake("divided by V", "/ targets.size", "/ p.shape[-1]",
            "Divide by the number of positions N = targets.size (the loss is a mean over positions), not by V."),
)
GRADCHECK = Gradcheck(forward="cross_entropy", args=("logits", "targets"), wrt=("logits",), upstream=None)


def reference(logits, targets):
    return _cross_entropy_backward(1.0, _cross_entropy_forward(logits, targets)[1])


CASES = (
    case("logits [[2, 1, 0], [0, 0, 0]] with targets [0, 2]", logits=[[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
         targets=np.array([0, 2])),
    random_case("random logits (2, 3, 5) with targets (2, 3)", seed=30, logits=normal(2, 3, 5),
                targets=integers(5, 2, 3)),
)
