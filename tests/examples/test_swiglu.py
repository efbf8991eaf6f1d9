"""Widget kind ``swiglu`` against numbers worked by hand."""
import math

import numpy as np

from engine.examples import KINDS, run
from results import values


def silu(g):
    return g / (1.0 + math.exp(-g))


def test_swiglu_defaults_by_hand():
    result = run("swiglu", KINDS["swiglu"].defaults())
    # row t0 = (1, -1): gate = (1, -1, -3), up = (2, 0, -1)
    np.testing.assert_allclose(values(result, "gate")[0], [1, -1, -3])
    np.testing.assert_allclose(values(result, "up")[0], [2, 0, -1])
    hidden = [silu(1) * 2, silu(-1) * 0, silu(-3) * -1]
    np.testing.assert_allclose(values(result, "hidden")[0], hidden, rtol=1e-12)
    # w_down rows (1, 0), (0, 1), (1, 1): y = (h0 + h2, h1 + h2)
    np.testing.assert_allclose(values(result, "y")[0], [hidden[0] + hidden[2], hidden[1] + hidden[2]], rtol=1e-12)
    # dy row t1 = (0, 1) reaches dw_down only through row t1's hidden: column 1 of dw_down is hidden[t1]
    # row t1 = (0.5, 2): gate = (0.5, 2, 1), up = (1, 2.5, 2)
    np.testing.assert_allclose(values(result, "dw_down")[:, 1], [silu(0.5) * 1, silu(2) * 2.5, silu(1) * 2],
                               rtol=1e-12)
