"""Exercise: rotary positions forward."""
import numpy as _np

from ..rope import rope_forward as _rope_forward
from ..rope import rope_tables as _rope_tables
from ._spec import Mistake, case, normal, random_case

TITLE = "Rotary positions forward"
PAGE = "layers/rope.md"
ORDER = 1
KIND = "write"
FUNCTION = "rope_forward"
OUTPUTS = ("y",)
STATEMENT = """\
Write `rope_forward(x, base=10000.0)` for queries or keys `x` of shape `(..., T, hs)` with `hs` even: the row at
position `t` (counted from 0 along the second-to-last axis) has each channel pair `(2i, 2i+1)` turned by the angle
\\(t\\,\\theta_i\\) with \\(\\theta_i = \\mathrm{base}^{-2i/hs}\\). Return `y` with the shape of `x`; leave `x`
unchanged."""
SOLUTION = '''\
def rope_forward(x, base=10000.0):
    """x: (..., T, hs), hs even. Return y, x with each pair turned by its position's angle."""
    T, hs = x.shape[-2:]
    theta = base ** (-np.arange(0, hs, 2) / hs)
    angle = np.arange(T)[:, None] * theta
    cos, sin = np.cos(angle), np.sin(angle)
    even, odd = x[..., 0::2], x[..., 1::2]
    y = np.empty_like(x)
    y[..., 0::2] = even * cos - odd * sin
    y[..., 1::2] = even * sin + odd * cos
    return y
'''
HINTS = (
    "The frequencies are `base ** (-np.arange(0, hs, 2) / hs)`, one per pair; the angles `(T, hs/2)` are positions "
    "times frequencies.",
    "A pair (a, b) turned by angle φ is (a cos φ − b sin φ, a sin φ + b cos φ); slice the pairs with `x[..., 0::2]` "
    "and `x[..., 1::2]`.",
)
MISTAKES = (
    Mistake("turned the wrong way", "y[..., 1::2] = even * sin + odd * cos", "y[..., 1::2] = -even * sin + odd * cos",
            "The second entry of the turned pair is a sin φ + b cos φ; with the sign flipped the pair is reflected."),
    Mistake("positions counted from 1", "angle = np.arange(T)[:, None] * theta",
            "angle = np.arange(1, T + 1)[:, None] * theta",
            "The first position is 0 and is not turned at all: use `np.arange(T)`."),
    Mistake("halves instead of pairs", "even, odd = x[..., 0::2], x[..., 1::2]",
            "even, odd = x[..., :hs // 2], x[..., hs // 2:]",
            "This page pairs neighbouring channels (2i, 2i+1), as RoFormer does; the half-split pairing is another "
            "convention and gives other numbers."),
)


def reference(x, base=10000.0):
    """The engine's rotation with the tables of positions 0..T-1."""
    return _rope_forward(x, _rope_tables(_np.arange(x.shape[-2]), x.shape[-1], base))


CASES = (
    case("one pair (3, 4) at positions 0, 1, 2", x=[[3.0, 4.0], [3.0, 4.0], [3.0, 4.0]], base=10000.0),
    random_case("a random batch of shape (2, 5, 6) with base 100", seed=3, x=normal(2, 5, 6), base=100.0),
    random_case("queries of shape (2, 3, 4, 8), heads on the second axis", seed=4, x=normal(2, 3, 4, 8),
                base=10000.0),
)
