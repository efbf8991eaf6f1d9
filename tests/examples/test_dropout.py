"""The dropout kind: the source documents' worked example, the backward by hand, the mean over many draws, bad input."""
import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.dropout import running_means
from results import raw_values


def test_p_half_with_mask_1011_doubles_the_kept_entries():
    result = run("dropout", KINDS["dropout"].defaults())
    # the worked example: p = 0.5, x = (1, 1, 1, 1), mask (1, 0, 1, 1) -> y = (1, 0, 1, 1) / 0.5 = (2, 0, 2, 2)
    assert raw_values(result, "mask") == [[1, 0, 1, 1]]
    assert raw_values(result, "y") == [[2, 0, 2, 2]]
    # backward by hand with dy = (1, 2, 3, 4): the same mask, the same factor 2
    assert raw_values(result, "dx") == [[2, 0, 6, 8]]
    assert result["arithmetic"] == "y[t0, j0] = x × m / (1 − p) = 1 × 1 / 0.5 = 2.0000"
    assert result["gradcheck"]["ok"]
    assert result["notes"][0] == "Kept 3 of 4 entries; each kept entry is multiplied by 1/(1 − p) = 2."


def test_fresh_mask_in_the_backward_is_caught():
    result = run("dropout", KINDS["dropout"].defaults())
    fresh = next(n for n in result["notes"] if n.startswith("Mistake: a fresh mask"))
    assert "differs from central differences by up to" in fresh
    assert float(fresh.rsplit(" ", 1)[1].rstrip(".")) > 1


def test_mean_is_preserved_and_halved_without_the_division():
    x = np.array([[1.0, 2.0, -3.0], [0.5, 4.0, 1.5]])  # mean 1
    with_scale, without_scale = running_means(x, 0.25, seed=3, draws=20000)
    # the standard error of the mean of 20000 draws is about 0.02 here; 0.1 leaves plenty of room
    assert abs(with_scale[-1] - 1.0) < 0.1
    assert abs(without_scale[-1] - 0.75) < 0.1
    assert with_scale.shape == (20000,)


def test_p_zero_keeps_everything_and_rows_added_keep_row_one():
    inputs = KINDS["dropout"].defaults()
    none_dropped = run("dropout", {**inputs, "p": 0.0})
    assert raw_values(none_dropped, "y") == inputs["x"]
    two_rows = run("dropout", {**inputs, "x": [[1, 1, 1, 1], [3, 3, 3, 3]], "dy": [[1, 2, 3, 4]] * 2})
    assert raw_values(two_rows, "mask")[0] == [1, 0, 1, 1]  # the first row's draws come first


@pytest.mark.parametrize("name, value, message", [
    ("p", 1.0, "p"),
    ("p", -0.1, "p"),
    ("seed", -1, "seed must be 0 or more, got -1"),
])
def test_bad_inputs_are_named(name, value, message):
    with pytest.raises(LayerwiseError, match=message):
        run("dropout", {**KINDS["dropout"].defaults(), name: value})
