"""Exercise: inverted dropout with a given keep-mask."""
import numpy as np

from ..dropout import dropout_forward as _dropout_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "Inverted dropout"
PAGE = "layers/dropout.md"
ORDER = 1
KIND = "write"
FUNCTION = "dropout_forward"
OUTPUTS = ("y",)
STATEMENT = """\
Write `dropout_forward(x, p, mask)` for training: `mask` is a boolean array shaped like `x`, `True` where the
entry is kept (drawn elsewhere with probability `1 - p`). Zero the dropped entries and divide the kept ones by
`1 - p` (*inverted* dropout), so every entry keeps its expected value and evaluation needs no rescaling. Arrays are
float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def dropout_forward(x, p, mask):
    """x: any shape, p: drop probability in [0, 1), mask: bool like x (True = keep). Return y."""
    return x * mask / (1.0 - p)
'''
HINTS = (
    "Multiplying by a boolean mask zeroes the dropped entries.",
    "A kept entry survives with probability 1 - p; dividing by 1 - p makes its expected value x again.",
)
MISTAKES = (
    Mistake("missing 1/(1-p)", "x * mask / (1.0 - p)", "x * mask",
            "Without dividing by 1 - p the expected output is (1 - p) x, smaller than at evaluation: inverted "
            "dropout scales the kept entries by 1/(1 - p)."),
    Mistake("divided by p", "/ (1.0 - p)", "/ p",
            "Divide by the probability of *keeping* an entry, 1 - p, not by the drop probability p."),
    Mistake("mask inverted", "x * mask", "x * ~mask",
            "`mask` is True where an entry is *kept*: multiply by it, not by its negation."),
)


def _keep(p, *shape):
    return lambda rng: rng.random(shape) >= p


reference = first_output(_dropout_forward)


CASES = (
    case("a 2×4 input with p = 0.25", x=[[1.0, 2.0, 3.0, 4.0], [-1.0, -2.0, -3.0, -4.0]], p=0.25,
         mask=np.array([[True, False, True, True], [False, True, True, False]])),
    random_case("a random (2, 3, 5) input with p = 0.1", seed=26, x=normal(2, 3, 5), p=0.1, mask=_keep(0.1, 2, 3, 5)),
    random_case("p = 0: nothing dropped, nothing scaled", seed=66, x=normal(3, 4), p=0.0, mask=_keep(0.0, 3, 4)),
    random_case("p = 0.9: most entries dropped, the rest scaled by 10", seed=67, x=normal(4, 5), p=0.9,
                mask=_keep(0.9, 4, 5)),
)


def _dropout(d):
    """Any shape, any p in [0, 1), a mask kept with probability 1 - p."""
    x = d.normal(*d.lead(), d.rows, d.n, offset=(0.0, 100.0))
    p = d.pick(0.0, 0.1, 0.5, 0.9, 0.99)
    return x, p, d.uniform(0.0, 1.0, *x.shape) >= p


DOMAIN = Domain(sizes={**LEADING, "rows": range(1, 65), "n": range(1, 769)},
                make=lambda d: dict(zip(("x", "p", "mask"), _dropout(d))))
