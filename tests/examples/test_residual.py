"""The residual kind: the worked numbers, each depth variant's backward against finite differences, the depth curves."""
import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.residual import VARIANTS, _layer_backward, _layer_forward, signal_through_depth
from engine.gradcheck import numerical_gradient
from results import raw_values


def test_gradient_is_one_plus_one_half():
    result = run("residual", KINDS["residual"].defaults())
    # f(v) = 0.5 v: d sum(v + f(v)) / dv = 1 (skip) + 0.5 (through W) = 1.5, the source documents' example
    assert raw_values(result, "dx_skip") == [1, 1]
    assert raw_values(result, "dx_branch") == [0.5, 0.5]
    assert raw_values(result, "dx") == [1.5, 1.5]
    assert result["arithmetic"] == "dx[j0] = dy (skip) + (dy @ W.T) (through f) = 1 + 0.5 = 1.5000"
    assert "dx[j0] would be 0.5 instead of 1.5" in result["notes"][0]
    assert result["gradcheck"]["ok"]


def test_forward_one_minus_one_plus_a_small_correction():
    # x = [1, -1] and a sub-layer whose output is [0.1, 0.2]: y = [1.1, -0.8]
    result = run("residual", {**KINDS["residual"].defaults(), "W": [[0.1, 0.2], [0, 0]]})
    np.testing.assert_allclose(raw_values(result, "fx"), [0.1, 0.2], atol=1e-15)
    np.testing.assert_allclose(raw_values(result, "y"), [1.1, -0.8], atol=1e-15)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_backward_matches_finite_differences(variant):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 5))
    W = rng.standard_normal((5, 5)) * 0.7
    dy = rng.standard_normal((3, 5))
    ones, zeros = np.ones(5), np.zeros(5)
    _, cache = _layer_forward(variant, x, W, ones, zeros)
    analytic = _layer_backward(variant, dy, cache)
    numeric = numerical_gradient(lambda: float(np.sum(_layer_forward(variant, x, W, ones, zeros)[0] * dy)), x)
    np.testing.assert_allclose(analytic, numeric, atol=1e-7)


def test_depth_curves():
    signal, gradient = signal_through_depth(gain=0.7, layers=12, seed=0)
    rng = np.random.default_rng(0)  # the same draws, in the same order, multiplied out directly
    x = rng.standard_normal((32, 64))
    weights = rng.normal(0.0, 0.7 / 8, (12, 64, 64))
    for W in weights:
        x = x @ W
    assert signal["plain f(x)"][-1] == pytest.approx(x.std(), rel=1e-12)
    assert 0.7 ** 12 / 2 < signal["plain f(x)"][-1] < 0.7 ** 12 * 2  # about 0.014, the source documents' number
    # post-LN renormalises after every layer: std 1 up to eps
    np.testing.assert_allclose(signal["post-LN"][1:], 1, atol=1e-4)
    # pre-LN adds a branch of variance gain^2 per layer: variance about 1 + l * 0.49
    expected = np.sqrt(1 + 0.49 * np.arange(13))
    np.testing.assert_allclose(signal["pre-LN"], expected, rtol=0.15)
    # without norms the residual stream grows like (1 + gain^2)^(l/2)
    assert signal["x + f(x)"][-1] > 5
    assert gradient["plain f(x)"][-1] == pytest.approx(gradient["x + f(x)"][-1])  # both start from the same dy
    assert gradient["plain f(x)"][0] < 0.05 < 1 < gradient["pre-LN"][0]


@pytest.mark.parametrize("name, value, message", [
    ("layers", 0, "layers must lie between 1 and 48, got 0"),
    ("layers", 49, "layers must lie between 1 and 48, got 49"),
    ("seed", -2, "seed must be 0 or more, got -2"),
    ("gain", 0, "gain must be from 0.01 to 10, got 0"),
    ("W", [[1, 2, 3], [4, 5, 6]], "W has shape"),
])
def test_bad_inputs_are_named(name, value, message):
    with pytest.raises(LayerwiseError, match=message):
        run("residual", {**KINDS["residual"].defaults(), name: value})
