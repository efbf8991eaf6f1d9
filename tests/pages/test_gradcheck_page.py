"""The Gradient checking page: the precision table against IEEE 754 by hand, and the knowledge-check arithmetic."""
import math

import numpy as np

from engine import norms
from engine.gradcheck import check_layer, relative_error

from page_values import page_text, shown_texts

PAGE = page_text("model/gradcheck.md")

SHOWN = shown_texts("model/gradcheck.md")


def test_the_precision_table():
    # Machine epsilon is 2^-52 for float64 (52 fraction bits) and 2^-23 for float32 (23 fraction bits).
    eps64, eps32 = 2.0**-52, 2.0**-23
    expected = [f"{eps64:.1e}", f"{eps64 ** (1 / 3):.0e}", f"{eps64 ** (2 / 3):.0e}",
                f"{eps32:.1e}", f"{eps32 ** (1 / 3):.0e}", f"{eps32 ** (2 / 3):.0e}"]
    assert SHOWN[:6] == expected
    assert SHOWN[1] == "6e-06"  # so h = 1e-5 is near the best step in float64


def test_knowledge_check_arithmetic():
    assert f"{(1.1**3 - 1) / 0.1:.2f}" == "3.31" and "= 3.31" in PAGE
    assert f"{(1.1**3 - 0.9**3) / 0.2:.2f}" == "3.01" and "= 3.01" in PAGE
    error = relative_error([1.0, 2.0], [1.0, 2.001])
    assert math.isclose(error, 0.001 / (math.sqrt(5) + math.sqrt(1 + 2.001**2)))
    assert f"{error:.1e}" == "2.2e-04" and "2.2 \\times 10^{-4}" in PAGE
    assert 2 * 32 * 128 == 8192 and "= 8192" in PAGE


def test_the_orders_of_magnitude_the_page_promises():
    rng = np.random.default_rng(0)
    inputs = {"x": rng.standard_normal((3, 5)), "gamma": rng.standard_normal(5)}
    # A correct backward in float64 with h = 1e-5: around 1e-10 or smaller.
    correct = check_layer(norms.rmsnorm_forward, norms.rmsnorm_backward, inputs, ("x", "gamma"))
    assert max(correct.values()) < 1e-9
    # A one-sided difference at h = 1e-5 is off by about h * f''/2; for exp at 0 that is 5e-6.
    one_sided = (math.exp(1e-5) - 1) / 1e-5
    assert 1e-6 < one_sided - 1 < 1e-5
    central = (math.exp(1e-5) - math.exp(-1e-5)) / 2e-5
    assert abs(central - 1) < 1e-10


def test_a_plain_sum_hides_a_missing_term():
    # LayerNorm with a uniform gain and upstream gradient 1: the true dx is 0, and so is the dx of a backward
    # that drops the x_hat * mean(g * x_hat) term; random weights R tell them apart.
    rng = np.random.default_rng(0)
    x, gamma, beta = rng.standard_normal((2, 5)), np.full(5, 1.5), np.zeros(5)
    _, cache = norms.layernorm_forward(x, gamma, beta)

    def without_variance_term(dy):
        g = gamma * dy
        return (g - g.mean(axis=-1, keepdims=True)) * cache["rstd"]

    ones = np.ones((2, 5))
    np.testing.assert_allclose(norms.layernorm_backward(ones, cache)[0], 0, atol=1e-12)
    np.testing.assert_allclose(without_variance_term(ones), 0, atol=1e-12)
    R = rng.standard_normal((2, 5))
    assert relative_error(without_variance_term(R), norms.layernorm_backward(R, cache)[0]) > 0.1
    assert "forgets the $\\hat{x}$ term returns 0" in PAGE


def _layernorm_rows(x, gamma, beta, eps=1e-5):
    """LayerNorm written out again, in whatever dtype x has (independent of engine.norms)."""
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    return centred / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps)) * gamma + beta


def _central_differences(x, gamma, beta, R, h):
    grad = np.zeros(x.shape)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += x.dtype.type(h)
        down[index] -= x.dtype.type(h)
        grad[index] = (np.sum(_layernorm_rows(up, gamma, beta) * R) - np.sum(_layernorm_rows(down, gamma, beta) * R)) \
            / (2 * h)
    return grad


def _rel(a, b):
    return np.linalg.norm(a - b) / (np.linalg.norm(a) + np.linalg.norm(b))


def test_float32_numbers_of_the_common_mistake():
    x64 = np.array([[1.0, -2.0, 0.5], [3.0, 1.0, -1.0]])  # the live check's defaults
    gamma64, beta64 = np.array([1.5, -0.5, 2.0]), np.array([0.0, 0.1, -0.2])
    R64 = np.random.default_rng(0).standard_normal(x64.shape)  # the loss weights the live check uses
    exact = _central_differences(x64, gamma64, beta64, R64, 1e-5)  # float64: good to ~1e-10
    x32, gamma32, beta32, R32 = (a.astype(np.float32) for a in (x64, gamma64, beta64, R64))
    at_default = _rel(exact, _central_differences(x32, gamma32, beta32, R32, 1e-5))
    at_best = _rel(exact, _central_differences(x32, gamma32, beta32, R32, 1e-2))
    mistake = PAGE[PAGE.index("**Checking in float32.**"):]
    shown = [float(v) for v in SHOWN[6:9]]
    # the page's engine numbers agree in order of magnitude with this independent float32 check
    assert at_default / 3 < shown[0] < at_default * 3 and 1e-3 < shown[0] < 1e-2
    assert shown[1] < 1e-9  # float64 at the same step
    assert at_best / 3 < shown[2] < at_best * 3 and shown[2] < 5e-5
    assert SHOWN[9] == "1e-02"
    # a 0.1 % error in every entry: |a - 1.001 a| / (|a| + |1.001 a|) = 0.001 / 2.001, about 5e-4
    assert f"{_rel(exact, 1.001 * exact):.0e}" == "5e-04" and "$5 \\times 10^{-4}$" in mistake
    assert shown[0] > 3 * 5e-4  # the float32 noise of a correct check is several times the 0.1 % error
    assert "both land around" not in PAGE
