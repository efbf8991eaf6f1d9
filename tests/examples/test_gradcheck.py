"""Widget kind ``gradcheck``: LayerNorm's gradients against an independent plain-Python LayerNorm differentiated by
central differences, the step-size sweep against the truncation/rounding argument, and bad steps named."""
import math
import re

import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.gradcheck import error_sweep
from plain_differences import central_differences
from results import values

EPS = 1e-5


def plain_layernorm_loss(rows, gamma, beta, R):
    """sum(LayerNorm(x) * R), written from Ba et al.'s formula with Python floats."""
    total = 0.0
    for row, weights in zip(rows, R):
        mean = sum(row) / len(row)
        var = sum((v - mean) ** 2 for v in row) / len(row)
        total += sum((g * (v - mean) / math.sqrt(var + EPS) + b) * w
                     for v, g, b, w in zip(row, gamma, beta, weights))
    return total


@pytest.fixture(scope="module")
def defaults():
    return KINDS["gradcheck"].defaults()


@pytest.fixture(scope="module")
def result(defaults):
    return run("gradcheck", defaults)


def test_both_gradients_agree_with_an_independent_implementation(defaults, result):
    rows, gamma, beta = defaults["x"], defaults["gamma"], defaults["beta"]
    R = values(result, "R").tolist()
    d = len(gamma)
    flat = [v for row in rows for v in row]
    by_hand_dx = central_differences(
        lambda f: plain_layernorm_loss([f[i:i + d] for i in range(0, len(f), d)], gamma, beta, R), flat)
    by_hand_dgamma = central_differences(lambda g: plain_layernorm_loss(rows, g, beta, R), gamma)
    by_hand_dbeta = central_differences(lambda b: plain_layernorm_loss(rows, gamma, b, R), beta)
    for name, expected in [("dx", by_hand_dx), ("dgamma", by_hand_dgamma), ("dbeta", by_hand_dbeta)]:
        np.testing.assert_allclose(values(result, name).ravel(), expected, atol=1e-7, err_msg=name)
        np.testing.assert_allclose(values(result, name + "_numeric").ravel(), expected, atol=1e-7, err_msg=name)
    # dbeta is the column sum of R: no approximation needed.
    np.testing.assert_allclose(values(result, "dbeta"), np.sum(R, axis=0), rtol=1e-12)
    assert result["gradcheck"]["ok"] and result["gradcheck"]["gap"] < 1e-8


def test_the_arithmetic_line_spells_out_one_entry(result):
    line = result["arithmetic"]
    assert line.startswith("dx[t0, i0] by central differences: (L(x + h) - L(x - h)) / 2h with h = 1e-05")
    numeric, formula = (float(v) for v in re.findall(r"gives (\S+?);", line))
    assert numeric == formula == values(result, "dx")[0, 0].round(4)


def test_the_sweep_finds_the_step_the_error_argument_predicts(result):
    # Truncation ~ h^2 against rounding ~ eps / h: best near eps^(1/3), about 6e-6 in float64 and 5e-3 in float32.
    best64, best32 = (int(k) for k in re.findall(r"h = 1e-(\d+)", result["notes"][1]))
    assert best64 in (4, 5, 6)
    assert best32 in (1, 2, 3)
    assert result["plots"][0]["svg"].count("<polyline") == 2


def test_a_broken_backward_is_caught(result):
    error = float(re.search(r"relative error of (\S+)\.$", result["notes"][2]).group(1))
    assert error > 0.1


def test_a_coarse_step_fails_the_check(defaults):
    coarse = run("gradcheck", {**defaults, "h": 0.1})
    # The h^2 truncation error is visible: far above rounding, far below a real mistake.
    assert not coarse["gradcheck"]["ok"]
    assert 1e-6 < coarse["gradcheck"]["gap"] < 1e-1


@pytest.mark.parametrize("h", [0, -1e-5, 2])
def test_a_bad_step_is_named(defaults, h):
    with pytest.raises(LayerwiseError, match=r"gradcheck example: h must be from 1e-12 to 1, got "):
        run("gradcheck", {**defaults, "h": h})


def test_the_memoised_sweep_follows_x_but_not_h(defaults, result):
    other_h = run("gradcheck", {**defaults, "h": 1e-3})
    assert other_h["plots"] == result["plots"]  # the sweep tries every h itself
    other_x = run("gradcheck", {**defaults, "x": [[2, -2, 0.5], [3, 1, -1]]})
    assert other_x["plots"] != result["plots"]
    error_sweep.cache_clear()  # computed afresh, the defaults give the same picture as from the memo
    assert run("gradcheck", defaults)["plots"] == result["plots"]
