"""The ReLU and GELU page: its inline values and typed answers against independent per-entry ``math`` calculations."""
import math

import numpy as np

from engine import activations, gradcheck

from page_values import page_text, shown_after, shown_texts

PAGE = page_text("layers/activations.md")

SHOWN = shown_texts("layers/activations.md")


def gelu_exact(x):
    return x * 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))


def test_inline_values_match_an_independent_calculation():
    grid = [-6 + 12 * i / 12000 for i in range(12001)]
    assert f"{max(abs(gelu_tanh(x) - gelu_exact(x)) for x in grid):.1e}" in SHOWN
    assert f"{gelu_exact(1.0):.4f}" in SHOWN and f"{gelu_tanh(1.0):.4f}" in SHOWN
    # GELU's minimum: where Phi(x) + x phi(x) = 0, found here by bisection on the derivative.
    low, high = -2.0, 0.0
    for _ in range(60):
        mid = (low + high) / 2
        slope = 0.5 * (1 + math.erf(mid / math.sqrt(2))) + mid * math.exp(-mid**2 / 2) / math.sqrt(2 * math.pi)
        low, high = (mid, high) if slope < 0 else (low, mid)
    assert f"{gelu_exact(low):.4f}" in SHOWN and f"{low:.2f}" in SHOWN and f"{gelu_exact(low):.2f}" in SHOWN


def test_typed_answers_of_the_knowledge_check():
    y, cache = activations.relu_forward(np.array([-2.0, 0.0, 3.0]))
    assert y.tolist() == [0, 0, 3] and "Forward: $[0, 0, 3]$" in PAGE
    assert activations.relu_backward(np.full(3, 5.0), cache).tolist() == [0, 0, 5] and "$dx = [0, 0, 5]$" in PAGE
    # Central differences at ReLU's corner give 1/2, whatever the step.
    for h in (1e-2, 1e-5):
        x = np.zeros(1)
        assert gradcheck.numerical_gradient(lambda: float(activations.relu_forward(x)[0].sum()), x, h)[0] == 0.5


def test_backward_equations_on_the_page_match_their_functions():
    x = np.linspace(-3.0, 2.5, 12)
    dy = np.cos(x)  # any upstream gradient that is not all ones
    h = 1e-6
    for forward, backward, curve in ((activations.gelu_erf_forward, activations.gelu_erf_backward, gelu_exact),
                                     (activations.gelu_tanh_forward, activations.gelu_tanh_backward, gelu_tanh)):
        expected = dy * np.array([(curve(v + h) - curve(v - h)) / (2 * h) for v in x])
        np.testing.assert_allclose(backward(dy, forward(x)[1]), expected, atol=1e-8)


def test_gelu_slope_on_the_negative_side_fades_and_is_negative():
    # d/dx of each form, by central differences of the formulas written out above: first the tanh form's three
    # slopes (-2 -> -0.086, -4 -> -3.4e-4), then the exact form's (-4 -> -5.0e-4: the forms part in the tail)
    h = 1e-6
    points = (-2.0, -3.0, -4.0)
    tanh_slopes = [(gelu_tanh(x + h) - gelu_tanh(x - h)) / (2 * h) for x in points]
    exact_slopes = [(gelu_exact(x + h) - gelu_exact(x - h)) / (2 * h) for x in points]
    marker = "GELU makes this rarer, not impossible"
    assert shown_after("layers/activations.md", marker, 6) == [
        f"{s:{fmt}}" for slopes in (tanh_slopes, exact_slopes) for s, fmt in zip(slopes, (".3f", ".3f", ".1e"))]
    assert all(s < 0 for s in tanh_slopes + exact_slopes) and abs(tanh_slopes[1]) < 0.02
    assert abs(exact_slopes[2] / tanh_slopes[2] - 1) > 0.3  # why the page names the form
