"""The positions kind: an independent causal attention, the places that cannot see a reordering, a bad order."""
import math

import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.positions import blind_places


def block(result, name):
    return np.array(next(b for b in result["blocks"] if b["name"] == name)["values"], dtype=float)


def attention_by_hand(h):
    """Row t: softmax over s <= t of h_t . h_s / sqrt(d), then the weighted sum of those rows."""
    out = np.empty_like(h)
    for t in range(len(h)):
        scores = np.array([h[t] @ h[s] for s in range(t + 1)]) / math.sqrt(h.shape[1])
        w = np.exp(scores - scores.max())
        out[t] = (w / w.sum()) @ h[: t + 1]
    return out


def test_default_swap_of_the_first_and_third_token():
    inputs = KINDS["positions"].defaults()
    result = run("positions", inputs)
    x, order = np.array(inputs["x"], dtype=float), inputs["order"]
    np.testing.assert_allclose(block(result, "out"), attention_by_hand(x), atol=1e-12)
    np.testing.assert_allclose(block(result, "out_moved"), attention_by_hand(x[order]), atol=1e-12)
    change = block(result, "change")
    # place 3 keeps token 3 and sees tokens {0, 1, 2} before it either way; place 0 now holds another token
    assert change[3] < 1e-12 and change[0] == pytest.approx(1.0)
    assert "t3." in result["notes"][0] and result["arithmetic"].endswith("= 0.0000")


def test_different_position_rows_at_the_swapped_places_make_the_order_visible():
    inputs = {**KINDS["positions"].defaults(), "P": [[0.3, 0], [0, 0], [0, 0], [0, 0]]}
    assert block(run("positions", inputs), "change")[3] > 1e-3


def test_blind_places_by_hand():
    assert blind_places(np.array([2, 1, 0, 3])) == [3]
    assert blind_places(np.array([1, 0, 2, 3])) == [2, 3]
    assert blind_places(np.array([0, 1, 2])) == [0, 1, 2]


def test_an_order_that_repeats_a_place_is_refused():
    with pytest.raises(LayerwiseError, match="order must name every place 0 to 3 once"):
        run("positions", {**KINDS["positions"].defaults(), "order": [0, 0, 1, 2]})


def test_the_reordered_weights_are_those_of_the_moved_tokens():
    inputs = KINDS["positions"].defaults()
    moved = np.array(inputs["x"], dtype=float)[inputs["order"]]
    A = block(run("positions", inputs), "A_moved")
    # row 1: scores h'_1 . h'_s / sqrt(2) for s = 0, 1 with h'_0 = (1, 1), h'_1 = (0, 1): 1/sqrt 2 and 1/sqrt 2
    np.testing.assert_allclose(moved[:2], [[1, 1], [0, 1]])
    np.testing.assert_allclose(A[1, :2], [0.5, 0.5])
    assert (A[np.triu_indices(4, 1)] == 0).all()
