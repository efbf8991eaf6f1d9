"""The LayerNorm page's worked steps: the arithmetic of (2, 4, 6, 8) and the 1/sigma scaling of the backward,
each done by hand here, and the Jacobian line checked entry by entry against central differences."""
import math

import numpy as np
import pytest
from page_values import page_text, shown_after

PAGE = "layers/layernorm.md"


def test_the_arithmetic_of_2_4_6_8():
    mean, deviations, var, root, x_hat, mean_of_x_hat, mean_square = shown_after(PAGE, "Now $x = (2, 4, 6, 8)$", 7)
    # mean 20 / 4 = 5; deviations (-3, -1, 1, 3); squares 9 + 1 + 1 + 9 = 20, variance 20 / 4 = 5
    assert (mean, deviations, var) == ("5.0", "[-3, -1, 1, 3]", "5.0")
    assert root == "2.23607" == f"{math.sqrt(5.00001):.5f}"
    assert x_hat == "[" + ", ".join(f"{d / math.sqrt(5.00001):.4f}" for d in (-3, -1, 1, 3)) + "]"
    assert 3 / 2.23607 == pytest.approx(1.3416, abs=5e-5) and "$3 / 2.23607 ≈ 1.3416$" in page_text(PAGE)
    # self-check: the deviations sum to 0; the mean square is (9 + 1 + 1 + 9) / 4 / 5.00001 = 5 / 5.00001
    assert mean_of_x_hat == "0.0000"
    assert mean_square == f"{5 / 5.00001:.6f}" == "0.999998"


def test_the_backward_of_the_doubled_row_is_half():
    # Worked in test_layernorm_page for (1, 2, 3, 4): dx = (0.3, -0.4, -0.1, 0.2) / sqrt(1.25 + eps). For (2, 4, 6, 8)
    # x_hat and g are the same and r = 1 / sqrt(5 + eps), so dx = (0.3, -0.4, -0.1, 0.2) / sqrt(5 + eps).
    first, _, doubled = shown_after(PAGE, "For the backward, send", 3)
    assert doubled == "[" + ", ".join(f"{v / math.sqrt(5.00001):.4f}" for v in (0.3, -0.4, -0.1, 0.2)) + "]"
    halves = [float(v) / 2 for v in first.strip("[]").split(", ")]
    assert np.allclose([float(v) for v in doubled.strip("[]").split(", ")], halves, atol=1e-4)


def test_the_jacobian_line_against_central_differences():
    # The page's r (delta_ij - 1/d - x_hat_i x_hat_j / d), written here from the formula alone, against the
    # numerical derivative of a plain-Python standardisation (independent of the engine).
    x, eps, h = np.array([0.5, -1.0, 2.0, 3.5, 0.0]), 1e-5, 1e-6

    def standardise(v):
        return (v - v.mean()) / np.sqrt(((v - v.mean()) ** 2).mean() + eps)

    d, x_hat = len(x), standardise(x)
    r = 1 / np.sqrt(x.var() + eps)
    formula = r * (np.eye(d) - 1 / d - np.outer(x_hat, x_hat) / d)  # [i, j]
    numerical = np.empty((d, d))
    for j in range(d):
        step = np.zeros(d)
        step[j] = h
        numerical[:, j] = (standardise(x + step) - standardise(x - step)) / (2 * h)
    assert np.allclose(formula, numerical, atol=1e-8)
    assert r"r \left( \delta_{ij} - \frac{1}{d} - \frac{\hat{x}_i\, \hat{x}_j}{d} \right)" in page_text(PAGE)


def test_the_two_scale_paragraph_and_the_eps_mistake():
    # scale 0.001 on (-3, -1, 1, 3): variance 5 * 1e-6 = 5e-6; sigma / sqrt(sigma^2 + eps) = sqrt(5e-6 / 1.5e-5)
    assert shown_after(PAGE, "### Where ε shows", 1) == [f"{math.sqrt(1 / 3):.4f}"] == ["0.5774"]
    # inside the root eps competes with sigma^2, so it matters from sigma ~ sqrt(1e-5) = 0.00316
    assert shown_after(PAGE, "**$\\epsilon$ outside the root.**", 1) == ["0.0032"]
    assert '```widget kind="layernorm_scale" id="layernorm-scale"' in page_text(PAGE)


def test_the_numbers_typed_in_the_prose():
    text = page_text(PAGE)
    # the doubled row's spread: sqrt(1.25) -> sqrt(5), so r halves
    assert (f"{math.sqrt(1.25):.3f}", f"{math.sqrt(5):.3f}") == ("1.118", "2.236")
    assert r"$\sqrt{1.25} ≈ 1.118$ to $\sqrt{5} ≈ 2.236$" in text
    # the self-check's squares: 9 / 5, 1 / 5, 1 / 5, 9 / 5
    assert [d * d / 5 for d in (-3, -1, 1, 3)] == [1.8, 0.2, 0.2, 1.8] and "(1.8 + 0.2 + 0.2 + 1.8) / 4" in text
    # the two-scale widget's defaults, as the paragraph describes them
    from engine.examples import KINDS
    defaults = KINDS["layernorm_scale"].defaults()
    assert defaults["scale"] == [0.001, 1000] and defaults["offset"] == [7, -2000]
    assert "stretches it by 0.001 and moves it to about 7" in text
    assert "stretches it by 1000 and moves it to about\n−2000" in text
    small_variance = 0.001**2 * np.var(defaults["pattern"])
    assert small_variance == pytest.approx(5e-6) and small_variance == pytest.approx(1e-5 / 2)
    assert "its variance is 5e-6, half of $\\epsilon$" in text
