"""The Softmax page: its inline values and typed answers against independent ``math`` calculations."""
import math
import struct
import sys

import numpy as np

from engine import softmax

from page_values import page_text, shown_texts

PAGE = page_text("layers/softmax.md")

SHOWN = shown_texts("layers/softmax.md")


def softmax_by_hand(row):
    exps = [math.exp(v - max(row)) for v in row]
    return [e / sum(exps) for e in exps]


def test_inline_values_match_an_independent_calculation():
    e = math.e
    last = e**2 / (1 + e + e**2)  # softmax([0, 1, 2])[2], the same for [1000, 1001, 1002]
    assert f"{last:.4f}" in SHOWN
    for p in softmax_by_hand([0.0, 1.0, 2.0]):
        assert f"{p:.4f}" in SHOWN
    float32_max = struct.unpack(">f", bytes.fromhex("7f7fffff"))[0]  # the largest finite float32
    assert f"{math.log(float32_max):.1f}" in SHOWN  # 88.7
    assert f"{math.log(sys.float_info.max):.1f}" in SHOWN  # 709.8


def test_typed_claims():
    p, cache = softmax.softmax_forward(np.log([1.0, 2.0, 3.0]))  # [0, ln 2, ln 3]
    np.testing.assert_allclose(p, [1 / 6, 1 / 3, 1 / 2], atol=1e-15)
    assert "$[1/6, 1/3, 1/2]$" in PAGE
    # A constant upstream gradient gives dx = 0.
    np.testing.assert_allclose(softmax.softmax_backward(np.full(3, 7.0), cache), 0, atol=1e-15)
    # The naive formula overflows on [1000, 1001, 1002] and returns nan for all three entries.
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp([1000.0, 1001.0, 1002.0]) / np.exp([1000.0, 1001.0, 1002.0]).sum()
    assert np.isnan(naive).all() and "returns `nan` for all three" in PAGE


def test_backward_equation_is_the_jacobian_product():
    x, dp = np.array([0.3, -1.2, 2.0, 0.0]), np.array([1.0, -2.0, 0.5, 3.0])
    p = softmax_by_hand(list(x))
    jacobian_t_dp = [sum(dp[i] * p[i] * ((i == j) - p[j]) for i in range(4)) for j in range(4)]
    _, cache = softmax.softmax_forward(x)
    np.testing.assert_allclose(softmax.softmax_backward(dp, cache), jacobian_t_dp, atol=1e-15)
