"""The RMSNorm page: its inline values and the numbers typed in its prose, against independent calculations."""
import math

import numpy as np

from engine import model, norms
from engine.config import GPTConfig

from page_values import page_text, shown_texts

PAGE = page_text("layers/rmsnorm.md")

SHOWN = shown_texts("layers/rmsnorm.md")


def test_the_worked_example():
    # (1, 2, 3, 4): squares average to 7.5, RMS = sqrt(7.5) ~ 2.74, y ~ (0.37, 0.73, 1.10, 1.46).
    assert SHOWN[:3] == ["7.5", f"{math.sqrt(7.5):.2f}", "[0.37, 0.73, 1.10, 1.46]"]
    # LayerNorm of the same row: (x - 2.5) / sqrt(1.25).
    assert SHOWN[3] == "[" + ", ".join(f"{(v - 2.5) / math.sqrt(1.25):.2f}" for v in (1, 2, 3, 4)) + "]"


def test_knowledge_check_answers():
    rms = math.sqrt((9 + 16) / 2)
    assert f"{rms:.2f}" == "3.54" and "\\approx 3.54" in PAGE
    assert (f"{3 / rms:.2f}", f"{4 / rms:.2f}") == ("0.85", "1.13") and "(0.85, 1.13)" in PAGE
    y, _ = norms.layernorm_forward(np.array([3.0, 4.0]), np.ones(2), np.zeros(2), eps=0)
    np.testing.assert_allclose(y, [-1, 1])
    assert "$y = (-1, 1)$" in PAGE
    # LayerNorm also removes the spread: (3, 4) and (30, 40) give the same output, so "only its spread is kept" is false
    y_big, _ = norms.layernorm_forward(np.array([30.0, 40.0]), np.ones(2), np.zeros(2), eps=0)
    np.testing.assert_allclose(y_big, y)
    assert "only its spread is kept" not in PAGE and "discards both the offset and the spread" in PAGE
    # Parameter counts: (2L + 1) d gains against twice that with LayerNorm, for L = 2, d = 32.
    config = GPTConfig(vocab_size=10)
    assert (config.num_layers, config.emb_dim) == (2, 32)
    rms_config = config.with_overrides(norm="rmsnorm")
    assert model.param_count(config) - model.param_count(rms_config) == 160
    assert norms.layernorm_param_count(2, 32) == 320 and "160 against 320" in PAGE
    # An all-zero row: r = 1 / sqrt(eps), about 316.
    _, cache = norms.rmsnorm_forward(np.zeros(4), np.ones(4))
    assert round(cache["rrms"].item()) == 316 and "\\approx 316" in PAGE


def test_the_claims_about_the_gradient():
    rng = np.random.default_rng(3)
    x, gamma, dy = rng.standard_normal((5, 6)), rng.standard_normal(6), rng.standard_normal((5, 6))
    # Scaling a row does not change RMSNorm's output (eps = 0), so dx is orthogonal to x ...
    _, cache = norms.rmsnorm_forward(x, gamma, eps=0)
    dx, _ = norms.rmsnorm_backward(dy, cache)
    np.testing.assert_allclose((dx * x).sum(axis=1), 0, atol=1e-12)
    # ... but it is not blind to a shift, so its rows need not sum to 0, unlike LayerNorm's.
    assert np.abs(dx.sum(axis=1)).max() > 1e-3
    _, ln_cache = norms.layernorm_forward(x, gamma, np.zeros(6))
    np.testing.assert_allclose(norms.layernorm_backward(dy, ln_cache)[0].sum(axis=1), 0, atol=1e-12)


def test_the_two_norms_coincide_on_a_mean_zero_row():
    x = np.array([-3.0, -1.0, 1.0, 3.0])
    np.testing.assert_allclose(norms.rmsnorm_forward(x, np.ones(4))[0],
                               norms.layernorm_forward(x, np.ones(4), np.zeros(4))[0], rtol=1e-12)
