"""Engine functions that exist to put a measured number on a page: checked by hand and by independent arithmetic."""
import math

import numpy as np
import pytest

from engine import branch_scale, optim
from engine.config import GPTConfig
from engine.errors import LayerwiseError


def test_uncorrected_step_ratio_at_step_one_by_hand():
    # m_1 = (1 - b1) g, v_1 = (1 - b2) g^2: the uncorrected step is (1 - b1) / sqrt(1 - b2) times the corrected one
    assert optim.uncorrected_step_ratio(1) == pytest.approx(0.1 / math.sqrt(0.05))  # 0.447
    assert optim.uncorrected_step_ratio(1, (0.9, 0.999)) == pytest.approx(0.1 / math.sqrt(0.001))  # 3.16


def test_uncorrected_step_ratio_matches_adam_run_on_any_gradients():
    # run the moment recursions on random gradients and compare the step with and without the correction
    rng = np.random.default_rng(3)
    for betas in ((0.9, 0.95), (0.9, 0.999)):
        m = v = 0.0
        for t in range(1, 60):
            g = rng.normal() * 10 ** rng.uniform(-3, 3)
            m = betas[0] * m + (1 - betas[0]) * g
            v = betas[1] * v + (1 - betas[1]) * g * g
            corrected = (m / (1 - betas[0] ** t)) / math.sqrt(v / (1 - betas[1] ** t))
            assert m / math.sqrt(v) / corrected == pytest.approx(optim.uncorrected_step_ratio(t, betas), rel=1e-9)


def test_uncorrected_step_ratio_rejects_step_zero():
    with pytest.raises(LayerwiseError, match="step must be an integer >= 1"):
        optim.uncorrected_step_ratio(0)


def gelu_mean_square(variance, points=20001):
    """E[gelu(z)^2] for z ~ N(0, variance), GPT-2's tanh GELU written out here, by the trapezoid rule over +-10 std."""
    z = np.linspace(-10, 10, points) * math.sqrt(variance)
    gelu = 0.5 * z * (1 + np.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z**3)))
    density = np.exp(-z**2 / (2 * variance)) / math.sqrt(2 * math.pi * variance)
    return float(np.trapezoid(gelu**2 * density, z))


def test_branch_output_std_follows_the_variance_argument():
    d, F, L = 32, 128, 2
    gpt2_v, gpt2_o = 0.02**2, (0.02 / math.sqrt(2 * L)) ** 2
    xavier = {(d, d): 2 / (d + d), (d, F): 2 / (d + F)}  # uniform draws, Var = a^2 / 3 = 2 / (n_in + n_out)
    # values then output projection: each matrix multiplies the variance by n_in Var(w); unit-variance inputs
    assert branch_scale.branch_output_std(GPTConfig(), "attention_values") == pytest.approx(
        math.sqrt(d * gpt2_v * d * gpt2_o), rel=0.05)  # 0.0064
    assert branch_scale.branch_output_std(GPTConfig(init="xavier"), "attention_values") == pytest.approx(
        math.sqrt(d * xavier[(d, d)] * d * xavier[(d, d)]), rel=0.05)  # 1
    # feed-forward: the hidden entries are N(0, d Var(w1)), GELU'd, then summed over F with Var(w2)
    assert branch_scale.branch_output_std(GPTConfig(), "feed_forward") == pytest.approx(
        math.sqrt(F * gpt2_o * gelu_mean_square(d * gpt2_v)), rel=0.05)
    assert branch_scale.branch_output_std(GPTConfig(init="xavier"), "feed_forward") == pytest.approx(
        math.sqrt(F * xavier[(d, F)] * gelu_mean_square(d * xavier[(d, F)])), rel=0.05)


def test_branch_output_std_rejects_an_unknown_branch():
    with pytest.raises(LayerwiseError, match="branch must be one of feed_forward, attention_values"):
        branch_scale.branch_output_std(GPTConfig(), "head")
