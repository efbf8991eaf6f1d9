"""SwiGLU: the backward against central differences, and the forward on numbers worked by hand."""
import math

import numpy as np

from engine import swiglu
from engine.gradcheck import check_layer


def test_swiglu_backward_matches_central_differences():
    rng = np.random.default_rng(0)
    inputs = {"x": rng.normal(size=(2, 3, 4)), "w_gate": rng.normal(size=(4, 6)), "w_up": rng.normal(size=(4, 6)),
              "w_down": rng.normal(size=(6, 4))}
    errors = check_layer(swiglu.swiglu_forward, swiglu.swiglu_backward, inputs, list(inputs))
    assert max(errors.values()) < 1e-6


def test_swiglu_forward_by_hand():
    # d = 1, F = 2: gates (2, -2), ups (1, 3), down (1, 1): y = silu(2) * 1 + silu(-2) * 3
    y, _ = swiglu.swiglu_forward(np.array([[1.0]]), np.array([[2.0, -2.0]]), np.array([[1.0, 3.0]]),
                                 np.array([[1.0], [1.0]]))
    assert abs(y[0, 0] - (2 / (1 + math.exp(-2)) - 6 / (1 + math.exp(2)))) < 1e-15
    assert swiglu.sigmoid(np.array([-800.0, 0.0, 800.0])).tolist() == [0.0, 0.5, 1.0]  # no overflow warning
