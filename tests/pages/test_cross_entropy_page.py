"""The Cross-entropy page: its inline values and typed answers against independent calculations."""
import math

import numpy as np

from engine import loss

from page_values import REPO, page_text, shown_values

PAGE = page_text("layers/cross-entropy.md")

VALUES = shown_values("layers/cross-entropy.md")
SHOWN = list(VALUES.values())


def test_vocabulary_and_initial_loss():
    V = len(set((REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")))
    assert str(V) in SHOWN
    assert f"{math.log(V):.4f}" in SHOWN and f"{math.log(V):.2f}" in SHOWN
    # The model's first loss, as printed, is close to ln V: the claim the page makes about it.
    (model_loss,) = [float(shown) for field, shown in VALUES.items() if "evaluate_loss" in field]
    assert abs(model_loss - math.log(V)) < 0.05


def test_typed_answers():
    assert f"{math.log(4):.4f}" in SHOWN
    value, cache = loss.cross_entropy_forward(np.zeros((1, 4)), np.array([2]))
    assert abs(value - math.log(4)) < 1e-15
    assert loss.cross_entropy_backward(1.0, cache).tolist() == [[0.25, 0.25, -0.75, 0.25]]
    assert r"$p - \text{onehot} = [0.25, 0.25, -0.75, 0.25]$" in PAGE
    # Logits [0, -800], target 1: log-sum-exp gives 800; softmax-then-log gives inf.
    value, _ = loss.cross_entropy_forward(np.array([[0.0, -800.0]]), np.array([1]))
    assert value == 800.0 and "the true loss is 800" in PAGE
    with np.errstate(under="ignore", divide="ignore"):
        assert -np.log(np.exp(-800.0) / (1.0 + np.exp(-800.0))) == np.inf
