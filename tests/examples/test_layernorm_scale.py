"""Widget kind ``layernorm_scale``: the pattern (-3, -1, 1, 3) at scales 0.001 and 1000, worked by hand, and the
readout growing as the small row's spread shrinks."""
import math

import numpy as np
import pytest

from engine.errors import LayerwiseError, ShapeError
from engine.examples import KINDS, run
from results import values

DEFAULTS = KINDS["layernorm_scale"].defaults()
ROOT5 = math.sqrt(5)  # the pattern's own spread: deviations (-3, -1, 1, 3), squares average to 5


def with_inputs(**changes):
    return run("layernorm_scale", {**DEFAULTS, **changes})


def test_the_default_rows_by_hand():
    result = with_inputs()
    np.testing.assert_allclose(values(result, "x"), [[6.997, 6.999, 7.001, 7.003], [-5000, -3000, -1000, 1000]])
    np.testing.assert_allclose(values(result, "sigma"), [0.001 * ROOT5, 1000 * ROOT5])
    # Small row: sigma^2 = 5e-6, plus eps = 1.5e-5; 0.001 / sqrt(1.5e-5) = 1 / sqrt(15), so y = pattern / sqrt(15).
    # Large row: eps is 1e-5 against 5e6, so y = pattern / sqrt(5) to ~1e-12.
    pattern = np.array([-3, -1, 1, 3])
    np.testing.assert_allclose(values(result, "y"), [pattern / math.sqrt(15), pattern / ROOT5], rtol=1e-9)
    np.testing.assert_allclose(values(result, "difference"), pattern / ROOT5 - pattern / math.sqrt(15), rtol=1e-9)
    # eps outside: 0.003 / (0.001 sqrt(5) + 1e-5) = 3 / (sqrt(5) + 0.01)
    np.testing.assert_allclose(values(result, "y_outside")[0], pattern / (ROOT5 + 0.01), rtol=1e-9)
    assert result["arithmetic"] == ("Row t0: σ² = 5e-06, √(σ² + 1e-05) = 0.003873, so entry 0 is (6.997 - 7) / "
                                    "0.003873 = -0.7746; with ε outside the root it would be -1.3357")


def test_the_readout_by_hand():
    first, second = with_inputs()["notes"]
    # 3 / sqrt(5) - 3 / sqrt(15) = 1.3416 - 0.7746 = 0.567; sigma / sqrt(sigma^2 + eps) = sqrt(5e-6 / 1.5e-5) = 0.5774
    assert "they differ by up to 0.567:" in first and "row t0 keeps σ / √(σ² + ε) = 0.5774 " in first
    # eps outside: 3 / sqrt(5) - 3 / (sqrt(5) + 0.01) = 0.006; the small row moves 1.3357 - 0.7746 = 0.5611
    assert "they differ by up to 0.006," in second and "row t0 moves by up to 0.5611 " in second
    assert "√ε ≈ 0.0032" in second


def test_the_toggle_spells_out_the_other_row():
    result = with_inputs(row=1)
    # (-5000 - (-2000)) / sqrt(5e6 + 1e-5) = -3000 / 2236.067978 = -1.3416 (eps lifts 2236.0679775 past the 7)
    root = f"{math.sqrt(5e6 + 1e-5):.6f}"
    assert root == "2236.067978"
    assert result["arithmetic"].startswith(f"Row t1: σ² = 5e+06, √(σ² + 1e-05) = {root}, so entry 0 is "
                                           f"((-5000) - (-2000)) / {root} = -1.3416")
    assert "row t1 keeps σ / √(σ² + ε) = 1 of" in result["notes"][0]
    assert np.array_equal(values(result, "y"), values(with_inputs(), "y"))  # only the spelled-out row changes


@pytest.mark.parametrize("scale, kept", [
    (0.01, math.sqrt(5e-4 / 5.1e-4)),  # sigma^2 = 5e-4: keeps 0.9901
    (0.001, math.sqrt(5e-6 / 1.5e-5)),  # 0.5774
    (0.0001, math.sqrt(5e-8 / 1.005e-5)),  # 0.0705
])
def test_the_gap_grows_as_the_spread_shrinks(scale, kept):
    result = with_inputs(scale=[scale, 1000])
    # the large row is pattern / sqrt(5); the small row is that times what it keeps
    expected_gap = 3 / ROOT5 * (1 - kept)
    assert np.abs(values(result, "difference")).max() == pytest.approx(expected_gap, rel=1e-6)


def test_the_picture_and_a_constant_pattern():
    assert [p["title"] for p in with_inputs()["plots"]] == ["How far ε moves the output, as the spread shrinks"]
    flat = with_inputs(pattern=[2, 2, 2, 2])
    assert flat["plots"] == [] and flat["notes"] == ["A constant pattern has no spread: both rows normalise to zeros."]
    assert not values(flat, "y").any()


def test_bad_inputs_name_the_problem():
    with pytest.raises(LayerwiseError, match="row must be from 0 to 1, got 2"):
        with_inputs(row=2)
    with pytest.raises(LayerwiseError, match=r"scale\[t1\] must be from 0 to 10000, got -1"):
        with_inputs(scale=[0.001, -1])
    with pytest.raises(ShapeError, match="scale has shape"):
        with_inputs(scale=[0.001, 1000, 5], offset=[7, -2000, 0])
