"""The Initialisation page: the signal-propagation table against the published measurements and the variance argument,
and the numbers typed in its prose and knowledge check."""
import math

import numpy as np

from engine import init, model
from engine.config import GPTConfig

from page_values import REPO, page_text, shown_after, shown_values

PAGE = page_text("layers/initialisation.md")

SHOWN = shown_values("layers/initialisation.md")
CORPUS_V = "len(data.build_vocab(data.load_corpus()))"


def shown(prefix):
    (value,) = [text for expression, text in SHOWN.items() if expression.startswith(prefix)]
    return value


def test_the_table_reproduces_the_published_experiment():
    # The published experiment, 10 layers of width 512 with ReLU: std 1 -> ~8e11, std 0.01 -> ~8e-9, He -> order 1.
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
    vocab = sorted(set((REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")))  # the corpus's distinct characters
    assert SHOWN["len(data.build_vocab(data.load_corpus()))"] == str(len(vocab))
    config = GPTConfig(vocab_size=len(vocab))
    params = model.init_params(config)
    assert config.num_layers == 2
    assert math.isclose(float(shown(f'model.init_params(config.GPTConfig(vocab_size={CORPUS_V}))["b0.wq"]')), 0.02,
                        rel_tol=0.05)
    for name in ("b0.wo", "b0.ff2_w"):
        assert math.isclose(params[name].std(), 0.02 / math.sqrt(2 * 2), rel_tol=0.05), name
    # biases start at exactly 0 and gains at exactly 1: min and max, not a std that is 0 for any constant
    assert shown(f'(model.init_params(config.GPTConfig(vocab_size={CORPUS_V}))["b0.bq"].min()') == "[0, 0]"
    assert shown(f'(model.init_params(config.GPTConfig(vocab_size={CORPUS_V}))["b0.ln1_g"].min()') == "[1, 1]"
    assert "65" not in PAGE


def relu_stack_output(weight_std, seed, layers=10, width=512, samples=1000):
    """The experiment written out independently: N(0, 1) inputs, then `layers` x (random matrix, ReLU)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((samples, width))
    for _ in range(layers):
        x = np.maximum(x @ rng.normal(0.0, weight_std, size=(width, width)), 0.0)
    return x


def test_he_row_std_against_mean_square_and_its_spread_over_seeds():
    outputs = [relu_stack_output(math.sqrt(2 / 512), seed) for seed in range(5)]
    stds = [x.std() for x in outputs]
    assert f"{min(stds):.2f}" == shown('min(init.signal_propagation("he", seed=s)')
    assert f"{max(stds):.2f}" == shown('max(init.signal_propagation("he", seed=s)')
    assert (shown('min(init.signal_propagation("he", seed=s)'), shown('max(init.signal_propagation("he", seed=s)')) \
        == ("0.72", "0.95")
    # ReLU of N(0, 2): mean square 1, mean sqrt(2) / sqrt(2 pi) = 1 / sqrt(pi), std sqrt(1 - 1/pi)
    z = np.random.default_rng(7).normal(0.0, math.sqrt(2.0), 2_000_000)
    relu = np.maximum(z, 0.0)
    assert math.isclose((relu**2).mean(), 1.0, rel_tol=0.01)
    assert math.isclose(relu.mean(), 1 / math.sqrt(math.pi), rel_tol=0.01)
    assert f"{math.sqrt(1 - 1 / math.pi):.2f}" == "0.83" and "\\sqrt{1 - 1/\\pi} \\approx 0.83" in PAGE
    assert f"{1 / math.sqrt(math.pi):.2f}" == "0.56" and "1/\\sqrt{\\pi} \\approx 0.56" in PAGE


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


def test_the_xavier_limits_table():
    shown = shown_after("layers/initialisation.md", 'With `init="xavier"` each matrix', 20)
    V = len(set((REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")))  # the head's outputs
    for row, (n_in, n_out) in zip(range(4), [(32, 32), (32, 128), (128, 32), (32, V)]):
        fan_in, fan_out, limit, lowest, highest = shown[5 * row:5 * row + 5]
        a = math.sqrt(6 / (n_in + n_out))  # a^2 / 3 = 2 / (n_in + n_out)
        assert (fan_in, fan_out, limit) == (str(n_in), str(n_out), f"{a:.4f}")
        # a thousand or more uniform draws: the extremes sit within a percent of the limits, never beyond
        assert -a - 5e-5 <= float(lowest) < -0.99 * a and 0.99 * a < float(highest) <= a + 5e-5  # shown to 4 places
    assert "`init_params` is called once, when `train` begins" in PAGE
