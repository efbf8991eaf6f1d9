"""The Dropout page: its inline values and typed answers against the worked example, hand arithmetic and sampling."""

import numpy as np

from engine import config, dropout, model
from engine.examples import KINDS
from engine.examples.dropout import MEAN_DRAWS

from page_values import REPO, page_text, shown_texts

PAGE = page_text("layers/dropout.md")

SHOWN = shown_texts("layers/dropout.md")


def test_inline_values_are_the_worked_example():
    # the worked example: p = 0.5, x = (1, 1, 1, 1), mask (1, 0, 1, 1) -> (1, 0, 1, 1) / 0.5 = (2, 0, 2, 2)
    assert SHOWN == ["[1, 0, 1, 1]", "[2, 0, 2, 2]"]


def test_typed_answers():
    y, cache = dropout.dropout_forward(np.array([5.0]), 0.2, np.array([True]))
    assert y[0] == 5 / 0.8 == 6.25 and "5 / 0.8 = 6.25" in PAGE
    assert 0.8 * 6.25 + 0.2 * 0 == 5
    assert f"{MEAN_DRAWS} fresh masks" in PAGE
    assert config.GPTConfig().dropout == 0.0 and "`GPTConfig.dropout = 0.0`" in PAGE


def test_variance_is_x_squared_p_over_one_minus_p():
    rng = np.random.default_rng(0)
    for p, x in ((0.5, 1.0), (0.2, 3.0)):
        mask = dropout.dropout_mask((400_000,), p, rng)
        y, _ = dropout.dropout_forward(np.full(400_000, x), p, mask)
        expected = x * x * p / (1 - p)
        assert abs(y.var() - expected) < 0.02 * expected + 0.01
    assert "$x^2\\, p / (1 - p)$" in PAGE


def test_the_model_drops_only_when_given_a_generator():
    cfg = config.GPTConfig(vocab_size=7, seq_len=4, emb_dim=8, num_heads=2, ff_dim=16, num_layers=1, dropout=0.5)
    params = model.init_params(cfg, seed=0)
    ids = np.array([[1, 2, 3, 4]])
    evaluation = [model.forward(params, ids, cfg)[0] for _ in range(2)]
    np.testing.assert_array_equal(evaluation[0], evaluation[1])  # no rng: the identity, so deterministic
    training = model.forward(params, ids, cfg, rng=np.random.default_rng(0))[0]
    assert not np.allclose(training, evaluation[0])
    assert "applies dropout only when it is given a\nrandom generator" in PAGE


def test_the_cited_engine_test_exists():
    cited = "tests/engine/test_layer_gradients.py"
    assert f"`test_dropout_with_a_fixed_mask` in `{cited}`" in PAGE.replace("\n", " ")
    assert "def test_dropout_with_a_fixed_mask(" in (REPO / cited).read_text()


def test_the_widget_starts_from_the_worked_example():
    defaults = KINDS["dropout"].defaults()
    assert defaults["x"] == [[1.0, 1.0, 1.0, 1.0]] and defaults["p"] == 0.5 and defaults["seed"] == 9
    assert "A random generator seeded with 9 draws the mask" in PAGE
