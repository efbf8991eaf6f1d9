"""The Initialisation page: the signal-propagation table against the seed's measurements and the variance argument,
and the numbers typed in its prose and knowledge check."""
import math

import numpy as np

from engine import init, model
from engine.config import GPTConfig

from page_values import page_text, shown_values

PAGE = page_text("layers/initialisation.md")

SHOWN = shown_values("layers/initialisation.md")


def shown(prefix):
    (value,) = [text for expression, text in SHOWN.items() if expression.startswith(prefix)]
    return value


def test_the_table_reproduces_the_seed_experiment():
    # Seed 000: 10 layers of width 512 with ReLU: std 1 -> about 8e11, std 0.01 -> about 8e-9, He -> of order 1.
    assert shown("init.signal_propagation(1.0)") == "8.0e+11"
    assert shown("init.signal_propagation(0.01)") == "8.0e-09"
    assert 0.5 < float(shown('init.signal_propagation("he")')) < 1.3
    # Xavier loses a factor sqrt(2) of std per layer under ReLU: about 0.58 * 2^(-9/2) after ten layers.
    xavier = float(shown('init.signal_propagation("xavier")'))
    assert math.sqrt(0.5 - 1 / (2 * math.pi)) * 2 ** -4.5 * 0.5 < xavier < 2 * math.sqrt(0.5) ** 9


def test_the_per_layer_factors_in_the_prose():
    assert math.sqrt(512 / 2) == 16 and "\\sqrt{512/2} = 16" in PAGE
    assert math.isclose(0.01 * math.sqrt(512 / 2), 0.16) and "by about 0.16" in PAGE
    # Same draws, weights 100 times smaller: ten layers later, exactly 1e-20 times smaller (ReLU is homogeneous).
    ratio = init.signal_propagation(0.01)[-1] / init.signal_propagation(1.0)[-1]
    assert math.isclose(ratio, 1e-20, rel_tol=1e-9)


def test_the_measured_stds_of_init_params():
    config = GPTConfig(vocab_size=65)
    params = model.init_params(config)
    assert config.num_layers == 2
    assert math.isclose(float(shown('model.init_params(config.GPTConfig(vocab_size=65))["b0.wq"]')), 0.02,
                        rel_tol=0.05)
    for name in ("b0.wo", "b0.ff2_w"):
        assert math.isclose(params[name].std(), 0.02 / math.sqrt(2 * 2), rel_tol=0.05), name
    assert shown('model.init_params(config.GPTConfig(vocab_size=65))["b0.bq"]') == "0.0"


def test_knowledge_check_answers():
    assert math.sqrt(2 / 128) == 0.125 and "\\sqrt{2/128} = 0.125" in PAGE
    assert f"{math.sqrt(2 / (128 + 32)):.3f}" == "0.112" and "\\approx 0.112" in PAGE
    factor = 0.5 * 512 * 0.05**2
    assert math.isclose(factor, 0.64) and "= 0.64" in PAGE
    assert f"{math.sqrt(factor) ** 10:.3f}" == "0.107" and "0.8^{10} \\approx 0.107" in PAGE
    assert math.isclose(init.gpt2_normal((400, 400), np.random.default_rng(0), num_layers=2).std(), 0.01, rel_tol=0.02)
    assert "0.02 / \\sqrt{2 \\cdot 2} = 0.01" in PAGE


def test_the_schemes_draw_the_variances_the_page_states():
    rng = np.random.default_rng(1)
    n_in, n_out = 300, 100
    np.testing.assert_allclose(init.xavier_uniform((n_in, n_out), rng).var(), 2 / (n_in + n_out), rtol=0.03)
    assert np.abs(init.xavier_uniform((n_in, n_out), rng)).max() <= math.sqrt(6 / (n_in + n_out))
    np.testing.assert_allclose(init.xavier_normal((n_in, n_out), rng).var(), 2 / (n_in + n_out), rtol=0.03)
    np.testing.assert_allclose(init.he_normal((n_in, n_out), rng).var(), 2 / n_in, rtol=0.03)
