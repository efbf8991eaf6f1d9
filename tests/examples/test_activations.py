"""Widget kind ``activations``: ReLU by hand, both GELUs against an independent per-entry ``math`` implementation."""
import math

import numpy as np

from engine.examples import KINDS, run
from results import values


def gelu_exact(x):
    return x * 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def slope(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def elementwise(f, x):
    return np.array([[f(v) for v in row] for row in x])


DEFAULTS = KINDS["activations"].defaults()
X, DY = np.array(DEFAULTS["x"], dtype=float), np.array(DEFAULTS["dy"], dtype=float)


def test_relu_by_hand():
    result = run("activations", DEFAULTS)
    # x = [[-2, -0.5, 0.5, 2], [-1, 0.25, 1, 3]]: negatives become 0, the rest pass; dy passes where x > 0.
    assert values(result, "relu").tolist() == [[0, 0, 0.5, 2], [0, 0.25, 1, 3]]
    assert values(result, "dx_relu").tolist() == [[0, 0, 1, 1], [0, -1, 2, 1]]


def test_both_gelus_match_an_independent_implementation():
    result = run("activations", DEFAULTS)
    np.testing.assert_allclose(values(result, "gelu_erf"), elementwise(gelu_exact, X), atol=1e-12)
    np.testing.assert_allclose(values(result, "gelu_tanh"), elementwise(gelu_tanh, X), atol=1e-12)
    np.testing.assert_allclose(values(result, "tanh_minus_erf"),
                               (elementwise(gelu_tanh, X) - elementwise(gelu_exact, X)) * 1e4, atol=1e-8)
    # Backwards against central differences of the independent curves (not the engine's gradient check).
    np.testing.assert_allclose(values(result, "dx_gelu_erf"), DY * elementwise(lambda v: slope(gelu_exact, v), X),
                               atol=1e-8)
    np.testing.assert_allclose(values(result, "dx_gelu_tanh"), DY * elementwise(lambda v: slope(gelu_tanh, v), X),
                               atol=1e-8)
    # Textbook value: Phi(1) = 0.841345 (standard normal table), so exact GELU(1) = 0.841345.
    assert abs(values(result, "gelu_erf")[1, 2] - 0.841345) < 1e-6
    assert abs(values(result, "cdf")[1, 2] - 0.841345) < 1e-6


def test_arithmetic_line_and_gradient_check():
    result = run("activations", DEFAULTS)
    # By hand: -2 + 0.044715 * (-8) = -2.35772; times 0.797885 = -1.88117; tanh = -0.95462;
    # 0.5 * (-2) * (1 - 0.95462) = -0.04538.
    assert result["arithmetic"] == ("The tanh GELU at [t0, f0]: t = tanh(0.7979 × ((-2) + 0.044715 × (-2)³))"
                                    " = -0.9546, and 0.5 × (-2) × (1 + (-0.9546)) = -0.0454")
    assert result["gradcheck"]["ok"] and result["gradcheck"]["gap"] < 1e-8
    assert len(result["plots"]) == 2 and all(p["svg"].startswith("<svg") for p in result["plots"])


def test_zero_input_shows_the_corner():
    result = run("activations", {"x": [[0.0, 1.0]], "dy": [[3.0, 1.0]]})
    assert values(result, "dx_relu").tolist() == [[0, 1]]
    assert values(result, "dx_relu_ge").tolist() == [[3, 1]]  # the ">= 0" mistake passes dy at exactly 0
    # Central differences at the corner: (relu(h) - relu(-h)) / 2h = 1/2, times dy = 3 gives 1.5, gap 1.5.
    assert not result["gradcheck"]["ok"]
    assert abs(result["gradcheck"]["gap"] - 1.5) < 1e-6
