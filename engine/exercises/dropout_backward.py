"""Exercise: the dropout backward reuses the forward's mask and scale."""
import numpy as np

from ..dropout import dropout_backward as _dropout_backward, dropout_forward as _dropout_forward
from ._domain import LEADING, Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "Dropout backward"
PAGE = "layers/dropout.md"
ORDER = 3
KIND = "write"
FUNCTION = "dropout_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
`dropout_forward(x, p, mask)` (inverted dropout) is given. Write `dropout_backward(dy, x, p, mask)` returning `dx`:
the forward multiplied every entry by a constant, 0 or `1/(1 - p)`, so the gradient is `dy` times that same
constant. (`x` is passed so the signature mirrors the forward; the gradient does not need it.) Arrays are float64
(NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def dropout_forward(x, p, mask):
    return x * mask / (1.0 - p)


def dropout_backward(dy, x, p, mask):
    """dy, x and mask have the same shape; p in [0, 1). Return dx."""
    return dy * mask / (1.0 - p)
'''
HINTS = (
    "A dropped entry did not reach the output, so it gets no gradient.",
    "A kept entry was multiplied by 1/(1 - p); its gradient is multiplied by the same factor.",
)
MISTAKES = (
    Mistake("missing 1/(1-p)", "dy * mask / (1.0 - p)", "dy * mask",
            "The forward scaled kept entries by 1/(1 - p), so their gradient carries the same factor."),
    Mistake("gradient for dropped entries", "dy * mask / (1.0 - p)", "dy / (1.0 - p)",
            "Dropped entries did not affect the output: their gradient is 0, so multiply by the mask."),
)
GRADCHECK = Gradcheck(forward="dropout_forward", args=("x", "p", "mask"), wrt=("x",), upstream="dy")


reference = through_cache(_dropout_backward, _dropout_forward)


CASES = (
    case("a 2×3 input with p = 0.25", dy=[[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], x=[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
         p=0.25, mask=np.array([[True, False, True], [False, True, True]])),
    random_case("a random (2, 4, 3) input with p = 0.5", seed=27, dy=normal(2, 4, 3), x=normal(2, 4, 3), p=0.5,
                mask=lambda rng: rng.random((2, 4, 3)) >= 0.5),
    random_case("p = 0: every entry kept", seed=68, dy=normal(3, 3), x=normal(3, 3), p=0.0,
                mask=lambda rng: np.ones((3, 3), dtype=bool)),
    random_case("p = 0.8 on a (5, 4) input", seed=69, dy=normal(5, 4), x=normal(5, 4), p=0.8,
                mask=lambda rng: rng.random((5, 4)) >= 0.8),
)


def _dropout(d):
    """Any shape, any p in [0, 1), a mask kept with probability 1 - p, an upstream gradient."""
    x = d.normal(*d.lead(), d.rows, d.n)
    p = d.pick(0.0, 0.1, 0.5, 0.9, 0.99)
    return d.normal(*x.shape, scale=(1.0, 1e3)), x, p, d.uniform(0.0, 1.0, *x.shape) >= p


DOMAIN = Domain(sizes={**LEADING, "rows": range(1, 65), "n": range(1, 769)},
                make=lambda d: dict(zip(("dy", "x", "p", "mask"), _dropout(d))))
