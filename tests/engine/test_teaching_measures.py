"""Engine functions that exist to put a measured number on a page: checked by hand and by independent arithmetic."""
import math

import numpy as np
import pytest

from engine import branch_scale, compute, loss_reading, model, optim
from engine.config import GPT2_SMALL, GPTConfig
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


def test_matrix_params_are_the_matrices_init_params_makes_besides_the_tables():
    config = GPTConfig(vocab_size=60)
    params = model.init_params(config)
    matrices = sum(p.size for name, p in params.items() if p.ndim == 2 and name not in ("tok_emb", "pos_emb"))
    assert compute.matrix_params(config) == matrices


def test_training_flops_of_gpt2_small_by_hand():
    # per block 4 * 768^2 + 2 * 768 * 3072 = 2,359,296 + 4,718,592; twelve blocks; the head 768 * 50,257
    n = 12 * (2_359_296 + 4_718_592) + 768 * 50_257
    assert n == 123_532_032
    assert compute.training_flops_per_token(GPT2_SMALL) == {"weights": 6 * n, "attention": 12 * 12 * 1024 * 768}


def test_matrix_params_needs_a_vocabulary():
    with pytest.raises(LayerwiseError, match="vocab_size is None"):
        compute.matrix_params(GPTConfig())


def test_perplexity_and_bits_by_hand():
    assert loss_reading.perplexity(math.log(4)) == pytest.approx(4)  # as unsure as a fair choice among 4
    assert loss_reading.bits_per_character(math.log(4)) == pytest.approx(2)  # 2 bits pick one of 4


def test_unigram_loss_by_hand():
    # "aab": frequencies 2/3 and 1/3, entropy -(2/3 ln 2/3 + 1/3 ln 1/3) = 0.6365
    assert loss_reading.unigram_loss("aab") == pytest.approx(0.636514, abs=1e-6)
    assert loss_reading.unigram_loss("abcd") == pytest.approx(math.log(4))  # all equally common: uniform


def test_overfitting_run_rows_and_its_best_step():
    rows = loss_reading.overfitting_run()
    every = loss_reading.OVERFIT_SETTINGS.eval_every
    assert [step for step, _, _ in rows] == list(range(every, loss_reading.OVERFIT_SETTINGS.steps + 1, every))
    best = min(rows, key=lambda row: row[2])
    assert loss_reading.best_validation_step() == best[0] and rows[-1][2] > best[2]
