"""Widget kind ``cross_entropy``: losses and gradient against an independent per-row ``math`` implementation."""
import math

import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from results import block, values


def row_loss(row, target):
    return math.log(sum(math.exp(v) for v in row)) - row[target]


DEFAULTS = KINDS["cross_entropy"].defaults()


def test_defaults_against_hand_formulas():
    result = run("cross_entropy", DEFAULTS)
    logits, targets = DEFAULTS["logits"], DEFAULTS["targets"]
    losses = [row_loss(row, y) for row, y in zip(logits, targets)]
    np.testing.assert_allclose(values(result, "per_position"), losses, atol=1e-14)
    assert abs(losses[2] - math.log(4)) < 1e-15  # the all-zero row costs ln V, V = 4
    np.testing.assert_allclose(float(block(result, "loss")["values"]), sum(losses) / 3, atol=1e-14)
    # Gradient: (softmax - onehot) / N, row by row, N = 3 positions.
    expected = []
    for row, y in zip(logits, targets):
        exps = [math.exp(v) for v in row]
        expected.append([(e / sum(exps) - (j == y)) / 3 for j, e in enumerate(exps)])
    np.testing.assert_allclose(values(result, "dlogits"), expected, atol=1e-15)
    np.testing.assert_allclose(values(result, "dlogits").sum(axis=1), 0, atol=1e-15)
    np.testing.assert_allclose(values(result, "naive"), losses, atol=1e-14)
    assert result["gradcheck"]["ok"]
    assert result["notes"][0].startswith("Equal logits in a row cost ln V = ln 4 = 1.3863,")


def test_arithmetic_line():
    result = run("cross_entropy", DEFAULTS)
    # log(e^2 + e + e^0.1 + e^-1) = log(11.6010) = 2.4512... minus z_0 = 2; p_0 = e^2 / 11.601 = 0.6369.
    lse = math.log(math.exp(2) + math.exp(1) + math.exp(0.1) + math.exp(-1))
    p0 = math.exp(2) / math.exp(lse)
    mean = float(block(result, "loss")["values"])
    assert result["arithmetic"] == (
        f"Position 1: LSE − z[0] = {lse:.4f} − 2 = {lse - 2:.4f}; the mean over 3 positions is {mean:.4f}. "
        f"Its gradient at the target: ({p0:.4f} − 1) / 3 = {(p0 - 1) / 3:.4f}")


def test_underflow_mistake():
    result = run("cross_entropy", {"logits": [[0.0, -800.0]], "targets": [1]})
    # LSE = log(1 + e^-800) = 0 in float64, so the loss is 0 - (-800) = 800; softmax-then-log gives inf.
    assert float(block(result, "loss")["values"]) == 800.0
    assert block(result, "naive")["values"] == [None] and block(result, "naive")["cells"] == ["inf"]
    assert result["nonfinite"] == ["naive"]
    assert values(result, "dlogits").tolist() == [[1.0, -1.0]]


def test_target_outside_the_vocabulary_is_named():
    with pytest.raises(LayerwiseError, match="targets"):
        run("cross_entropy", {**DEFAULTS, "targets": [0, 4, 1]})


def test_loss_curve_has_a_bar_per_position():
    result = run("cross_entropy", DEFAULTS)
    (plot,) = result["plots"]
    assert plot["svg"].count("<polyline") == 1 + 3  # the curve -ln p and one bar per position
    assert "position 3" in plot["svg"]
