"""Exercise: the relative error that decides whether a gradient check passes."""
import numpy as np

from ..gradcheck import relative_error as _relative_error
from ._domain import LEADING, Domain
from ._spec import Mistake, case, normal, random_case

TITLE = "Relative error"
PAGE = "model/gradcheck.md"
ORDER = 2
KIND = "write"
FUNCTION = "relative_error"
OUTPUTS = ("error",)
STATEMENT = """\
Write `relative_error(a, b)` returning \\(\\lVert a - b\\rVert / (\\lVert a\\rVert + \\lVert b\\rVert)\\) as a float,
with Euclidean norms over all entries, for two arrays of the same shape. It is symmetric in `a` and `b` and does not
depend on their overall scale, from 1e-150 to 1e100. When both arrays are exactly zero, return 0. Arrays are float64
(NumPy's default); leave them unchanged."""
SOLUTION = '''\
def relative_error(a, b):
    """a, b: arrays of the same shape. Return the relative error as a float."""
    denominator = np.linalg.norm(a) + np.linalg.norm(b)
    if denominator == 0:
        return 0.0
    return float(np.linalg.norm(a - b) / denominator)
'''
HINTS = (
    "`np.linalg.norm(a)` is the Euclidean norm of all entries of a, whatever its shape.",
    "Guard the 0 / 0 case before dividing.",
)
MISTAKES = (
    Mistake("only one norm below", "np.linalg.norm(a) + np.linalg.norm(b)", "np.linalg.norm(b)",
            "Divide by the sum of both norms, so the measure is symmetric and lies between 0 and 1."),
    Mistake("both zero", "    if denominator == 0:\n        return 0.0\n", "",
            "When both arrays are zero the fraction is 0 / 0 (nan): return 0, they agree exactly."),
    Mistake("largest entry instead of norm", "float(np.linalg.norm(a - b) / denominator)",
            "float(np.abs(a - b).max() / denominator)",
            "The numerator is the Euclidean norm of a - b over all entries, not its largest entry."),
)


def reference(a, b):
    return _relative_error(a, b)


CASES = (
    case("a = [3, 4] and b = [3, 0]", a=[3.0, 4.0], b=[3.0, 0.0]),
    case("two zero arrays of shape (2, 2)", a=[[0.0, 0.0], [0.0, 0.0]], b=[[0.0, 0.0], [0.0, 0.0]]),
    random_case("random a and b of shape (3, 4)", seed=33, a=normal(3, 4), b=normal(3, 4)),
    random_case("tiny arrays, entries around 1e-150, where any constant added below would dominate", seed=84,
                a=normal(2, 5, scale=1e-150), b=normal(2, 5, scale=1e-150)),
    random_case("huge arrays, entries around 1e100", seed=85, a=normal(4, 3, scale=1e100),
                b=normal(4, 3, scale=1e100)),
    case("a zero array against a nonzero one (relative error 1)", a=[0.0, 0.0], b=[1e-3, -2e-3]),
    random_case("two 0-d arrays", seed=86, a=normal(), b=normal()),
)


def _pair(d):
    """Same shape, any common scale from 1e-150 to 1e100, equal or both zero at times."""
    scale = d.pick(1e-150, 1e-8, 1.0, 1e100)
    a = d.normal(*d.lead(), *(d.n,) * (d.n > 0), scale=scale)
    b = d.pick(lambda: a.copy(), lambda: np.zeros_like(a), lambda: d.normal(*a.shape, scale=scale),
               lambda: a + d.normal(*a.shape, scale=scale * 1e-6))()
    return {"a": a * d.pick(1.0, 0.0), "b": b}


DOMAIN = Domain(sizes={**LEADING, "n": (0, 1, 3, 100, 768)}, make=_pair)
