"""Widget kind ``rmsnorm``: the published worked row, LayerNorm beside it, and the backward against an independent
plain-Python RMSNorm differentiated by central differences."""
import math
import re

import numpy as np
import pytest

from engine.errors import ShapeError
from engine.examples import KINDS, run
from plain_differences import central_differences
from results import values

EPS = 1e-5


def plain_rmsnorm(rows, gamma):
    """RMSNorm written from the paper's formula with Python floats, one row at a time."""
    out = []
    for row in rows:
        rms = math.sqrt(sum(v * v for v in row) / len(row) + EPS)
        out.append([g * v / rms for g, v in zip(gamma, row)])
    return out


@pytest.fixture(scope="module")
def defaults():
    return KINDS["rmsnorm"].defaults()


@pytest.fixture(scope="module")
def result(defaults):
    return run("rmsnorm", defaults)


def test_the_worked_row(result):
    # x = (1, 2, 3, 4): squares (1, 4, 9, 16), mean 7.5, RMS about 2.74, y about (0.37, 0.73, 1.10, 1.46).
    assert values(result, "ms")[0] == 7.5
    assert values(result, "rms")[0] == pytest.approx(2.74, abs=0.005)
    np.testing.assert_allclose(values(result, "y")[0], [0.37, 0.73, 1.10, 1.46], atol=0.005)
    assert result["arithmetic"] == ("Row t0: ms = (1² + 2² + 3² + 4²) / 4 = 7.5; y[t0, i0] = "
                                    "1 × 1 / √(7.5 + 1e-05) = 0.3651")


def test_layernorm_beside_it(result):
    # LayerNorm of (1, 2, 3, 4) with gamma 1, beta 0: (x - 2.5) / √1.25, about (-1.34, -0.45, 0.45, 1.34).
    np.testing.assert_allclose(values(result, "y_layernorm")[0], [-1.34, -0.45, 0.45, 1.34], atol=0.005)
    # (-3, -1, 1, 3) has mean 0, so both norms give x / √5 for it.
    np.testing.assert_allclose(values(result, "y")[1], np.array([-3, -1, 1, 3]) / math.sqrt(5 + EPS), rtol=1e-12)
    np.testing.assert_allclose(values(result, "y_layernorm")[1], values(result, "y")[1], rtol=1e-12)


def test_forward_and_backward_match_an_independent_implementation(defaults, result):
    rows, gamma, dy = defaults["x"], defaults["gamma"], defaults["dy"]
    np.testing.assert_allclose(values(result, "y"), plain_rmsnorm(rows, gamma), rtol=1e-12)
    d = len(gamma)

    def loss_of_x(flat):
        y = plain_rmsnorm([flat[i:i + d] for i in range(0, len(flat), d)], gamma)
        return sum(a * b for yr, dr in zip(y, dy) for a, b in zip(yr, dr))

    def loss_of_gamma(g):
        return sum(a * b for yr, dr in zip(plain_rmsnorm(rows, g), dy) for a, b in zip(yr, dr))

    flat_x = [v for row in rows for v in row]
    np.testing.assert_allclose(values(result, "dx").ravel(), central_differences(loss_of_x, flat_x), atol=1e-8)
    np.testing.assert_allclose(values(result, "dgamma"), central_differences(loss_of_gamma, gamma), atol=1e-8)
    assert result["gradcheck"]["ok"]


def test_the_mistakes_are_measured(defaults, result):
    x = np.array(defaults["x"], dtype=float)
    ms = (x**2).mean(axis=1, keepdims=True)
    eps_outside_change = np.max(np.abs(x / (np.sqrt(ms) + EPS) - x / np.sqrt(ms + EPS)))
    shown = float(re.search(r"up to (\S+) for", result["notes"][1]).group(1))
    assert shown == pytest.approx(eps_outside_change, rel=0.06)  # printed with two significant digits
    constant_r_gap = float(re.search(r"differences (\S+)\.$", result["notes"][2]).group(1))
    assert constant_r_gap > 0.1  # a real mistake: of order 1, not rounding noise


def test_a_gain_of_the_wrong_length_is_named(defaults):
    with pytest.raises(ShapeError, match=r"x has shape \(2, 4\) but gamma has shape \(3,\)"):
        run("rmsnorm", {**defaults, "gamma": [1, 1, 1]})


def test_the_shift_picture(result):
    # Adding c to every entry of row 1 leaves LayerNorm's output unchanged (flat line) but not RMSNorm's.
    svg = result["plots"][0]["svg"]
    rms_points, ln_points = re.findall(r'<polyline[^>]*points="([^"]*)"', svg)
    heights = [{float(p.split(",")[1]) for p in points.split()} for points in (rms_points, ln_points)]
    assert len(heights[1]) == 1 and len(heights[0]) > 10
    for c in (-4.0, 4.0):  # the two ends by the independent implementation
        shifted = [v + c for v in KINDS["rmsnorm"].defaults()["x"][0]]
        assert plain_rmsnorm([shifted], [1, 1, 1, 1])[0][0] != pytest.approx(plain_rmsnorm([[1, 2, 3, 4]], [1] * 4)[0][0])
