"""Rotary positions: the rotation's backward against central differences, and a rotation worked by hand."""
import math

import numpy as np

from engine import rope
from engine.gradcheck import check_layer


def test_rope_backward_matches_central_differences():
    x = np.random.default_rng(0).normal(size=(2, 3, 4))
    tables = rope.rope_tables(np.arange(3), 4, base=50.0)
    errors = check_layer(lambda x: (rope.rope_forward(x, tables), None), lambda dy, _: rope.rope_backward(dy, tables),
                         {"x": x}, ["x"])
    assert errors["x"] < 1e-6


def test_rope_forward_by_hand():
    # hs = 2: one pair, theta_0 = 1 whatever the base; (3, 4) at position 2 turns by 2 radians
    y = rope.rope_forward(np.array([[0.0, 0.0], [0.0, 0.0], [3.0, 4.0]]), rope.rope_tables(np.arange(3), 2))
    np.testing.assert_allclose(y[2], [3 * math.cos(2) - 4 * math.sin(2), 3 * math.sin(2) + 4 * math.cos(2)],
                               rtol=1e-15)
    np.testing.assert_allclose(rope.rope_frequencies(6, base=1000.0), [1.0, 0.1, 0.01], rtol=1e-15)
