"""Widget kind ``initialisation``: the signal-propagation picture, checked against the variance argument worked by
hand and against ReLU's positive homogeneity (same random draws, weights c times larger: layer l is c^l larger)."""
import math
import re

import numpy as np
import pytest

from engine import init
from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.initialisation import SAMPLES
from results import block


def log_stds(result, name):
    """log10 of the stds the block shows (the stds span twenty orders of magnitude)."""
    return np.log10(block(result, name)["values"])


@pytest.fixture(scope="module")
def result():
    return run("initialisation", KINDS["initialisation"].defaults())


def test_one_value_per_layer_for_every_scheme(result):
    names = [b["name"] for b in result["blocks"]]
    assert names == ["std_1", "std_0_01", "xavier", "he", "yours"]
    assert all(len(log_stds(result, n)) == 10 for n in names)


def test_first_layer_matches_the_variance_argument(result):
    # Input N(0, 1); pre-activation variance 512 * std^2; ReLU of N(0, s^2) has std s * sqrt(1/2 - 1/(2 pi)).
    relu_std_factor = math.sqrt(0.5 - 1 / (2 * math.pi))
    for name, std in [("std_1", 1.0), ("std_0_01", 0.01), ("he", math.sqrt(2 / 512)), ("yours", 0.05)]:
        expected = math.sqrt(512) * std * relu_std_factor
        assert 10 ** log_stds(result, name)[0] == pytest.approx(expected, rel=0.05), name


def test_every_line_equals_its_own_run_of_the_experiment(result):
    # The kind rescales one unit-std run; a separate engine run per scheme must give the same numbers.
    for name, weight_std in [("std_1", 1.0), ("std_0_01", 0.01), ("xavier", "xavier"), ("he", "he"), ("yours", 0.05)]:
        direct = init.signal_propagation(weight_std, num_layers=10, width=512, num_samples=SAMPLES)
        np.testing.assert_allclose(log_stds(result, name), np.log10(direct), atol=1e-12, err_msg=name)


def test_relu_is_positively_homogeneous(result):
    # The same draws scaled by 0.01 shrink layer l by 0.01^l: log10 differs by exactly 2 l.
    layers = np.arange(1, 11)
    np.testing.assert_allclose(log_stds(result, "std_0_01"), log_stds(result, "std_1") - 2 * layers, atol=1e-9)


def test_the_experiment_shapes(result):
    # std 1 explodes to ~1e12, std 0.01 vanishes to ~1e-8, He stays of order 1, Xavier loses sqrt(2) per layer.
    assert 11.5 < log_stds(result, "std_1")[-1] < 12.5
    assert -8.5 < log_stds(result, "std_0_01")[-1] < -7.5
    assert np.all(np.abs(log_stds(result, "he")) < 0.3)
    xavier = log_stds(result, "xavier")
    assert (xavier[-1] - xavier[0]) / 9 == pytest.approx(math.log10(math.sqrt(0.5)), abs=0.03)


def test_the_stds_are_shown_themselves_in_scientific_notation_when_tiny_or_huge(result):
    # After ten layers std 0.01 has shrunk to ~1e-8 and std 1 grown to ~1e12 (the bounds tested below): neither fits
    # four fixed decimals, so both read as mantissa and exponent.
    tiny, huge = block(result, "std_0_01")["cells"][-1], block(result, "std_1")["cells"][-1]
    assert re.fullmatch(r"\d\.\d{3}e-0[89]", tiny) and float(tiny) == pytest.approx(block(result, "std_0_01")["values"][-1], rel=1e-3)
    assert re.fullmatch(r"\d\.\d{3}e\+1[12]", huge) and float(huge) == pytest.approx(block(result, "std_1")["values"][-1], rel=1e-3)
    assert block(result, "he")["cells"][0] == format(block(result, "he")["values"][0], ".4f")


def test_the_arithmetic_line_and_the_picture(result):
    assert result["arithmetic"] == ("He with width 512: std √(2 / 512) = 0.0625, so each layer multiplies the "
                                    "variance by ½ × 512 × 0.0625² = 1")
    assert result["gradcheck"] is None
    (plot,) = result["plots"]
    assert plot["svg"].startswith("<svg") and plot["svg"].count("<polyline") == 5
    assert "log scale" in plot["svg"]


def test_changing_depth_and_width_reruns_the_experiment():
    shallow = run("initialisation", {"depth": 3, "width": 512, "std": 0.05})
    deep = run("initialisation", {"depth": 10, "width": 512, "std": 0.05})
    # Same seed, so the first three layers are the same draws.
    np.testing.assert_allclose(log_stds(shallow, "he"), log_stds(deep, "he")[:3], rtol=1e-12)
    narrow = run("initialisation", {"depth": 5, "width": 32, "std": 0.05})
    # Width 32: std 1 multiplies the std by about sqrt(32 / 2) = 4 per layer.
    per_layer = np.diff(log_stds(narrow, "std_1")).mean()
    assert per_layer == pytest.approx(math.log10(4), abs=0.1)
    assert "Xavier √(1/32)" in narrow["plots"][0]["svg"]


@pytest.mark.parametrize("inputs, message", [
    ({"depth": 0}, "depth must be a whole number from 1 to 20, got 0"),
    ({"depth": 21}, "depth must be a whole number from 1 to 20, got 21"),
    ({"width": 1}, "width must be a whole number from 2 to 512, got 1"),
    ({"width": 600}, "width must be a whole number from 2 to 512, got 600"),
    ({"std": 0}, "std must be from 0.001 to 10, got 0"),
    ({"depth": 2.5}, "depth must be a whole number, got 2.5"),
])
def test_bad_sizes_are_named(inputs, message):
    with pytest.raises(LayerwiseError, match=message.replace("(", r"\(")):
        run("initialisation", {**KINDS["initialisation"].defaults(), **inputs})
