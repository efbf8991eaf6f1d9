"""The LayerNorm page's claims: GPT-2 small's norm parameters, the variance just below 1, the knowledge-check row,
and which wrong axis breaks causality (checked on plain NumPy, independently of the engine)."""
import math

import numpy as np
import pytest

from page_values import page_text, shown_values

PAGE = page_text("layers/layernorm.md")
SHOWN = shown_values("layers/layernorm.md")


def shown(prefix):
    (value,) = [text for expression, text in SHOWN.items() if expression.startswith(prefix)]
    return value


def test_gpt2_small_layernorm_parameters():
    blocks, width = 12, 768
    norms = 2 * blocks + 1  # before attention and before the MLP in every block, and one final
    assert norms == 25 and norms * 2 * width == 38_400
    assert shown("norms.layernorm_param_count(config.GPT2_SMALL.num_layers") == "38,400"
    published = 124_439_808  # GPT-2 small with its head tied to the token table (nanoGPT's count)
    assert shown("(model.param_count(config.GPT2_SMALL)") == f"{published:,}"
    assert f"{100 * 38_400 / published:.2f}" == "0.03" and shown("100 * norms.layernorm_param_count") == "0.03"
    assert "{ #gpt2-small-layernorm-parameters }" in PAGE


def test_standardised_variance_is_below_one():
    x = np.array([2.0, 4.0, 6.0, 8.0])
    x_hat = (x - 5) / math.sqrt(5 + 1e-5)
    assert x_hat.var() < 1 and math.isclose(x_hat.var(), 5 / 5.00001)
    assert "variance 1 per row" not in PAGE and "variance just below 1" in PAGE
    first_odot = PAGE.index("\\odot")
    assert "elementwise product" in PAGE[first_odot - 200:first_odot + 200]


def test_knowledge_check_row_by_hand():
    # (5, 5, 5, 9): mean 6, deviations (-1, -1, -1, 3), variance 12 / 4 = 3
    root3 = math.sqrt(3)
    by_hand = [-1 / root3] * 3 + [3 / root3]
    assert shown("norms.layernorm_forward(np.array([5.0, 5.0, 5.0, 9.0])") == \
        "[" + ", ".join(f"{v:.3f}" for v in by_hand) + "]" == "[-0.577, -0.577, -0.577, 1.732]"
    assert "x = (1, 3)" not in PAGE  # the question the source documents ask is not reused


def normalise(x, axis):
    return (x - x.mean(axis=axis, keepdims=True)) / np.sqrt(x.var(axis=axis, keepdims=True) + 1e-5)


def test_averaging_over_tokens_leaks_the_future_and_over_the_batch_does_not():
    x = np.random.default_rng(0).normal(size=(3, 5, 4))  # (B, T, d)
    later = x.copy()
    later[:, 4, :] += 10.0  # change only the last position of every sequence
    t0 = (slice(None), 0, slice(None))
    assert np.allclose(normalise(x, -1)[t0], normalise(later, -1)[t0])  # LayerNorm: position 0 unaffected
    assert not np.allclose(normalise(x, 1)[t0], normalise(later, 1)[t0])  # over tokens: the future leaks back
    assert np.allclose(normalise(x, 0)[t0], normalise(later, 0)[t0])  # over the batch: position 0 still blind to t4
    other = x.copy()
    other[1] += 10.0  # change another example of the batch
    assert not np.allclose(normalise(x, 0)[0], normalise(other, 0)[0])  # ...but examples are coupled
    mistake = PAGE[PAGE.index("**Normalising over the wrong axis.**"):]
    mistake = mistake[:mistake.index("\n\n")]
    assert "no longer\ncausal" in mistake and "keeps causality" in mistake


def test_the_wrong_axis_check_on_the_page_passes_a_correct_layernorm_on_a_flat_row():
    # the page's two lines, run as written: on the two-scale example's flat row (variance 5e-6, near eps) a correct
    # LayerNorm's output variance is 1/3, which "var close to 1" would reject; over the wrong axis the check fails
    from engine.norms import DEFAULT_EPS as eps, layernorm_forward
    mistake = PAGE[PAGE.index("**Normalising over the wrong axis.**"):]
    check = mistake[mistake.index("```python\n") + 10:mistake.index("\n```", mistake.index("```python"))]
    spread = np.sqrt(5e-6 / 1.25)  # the pattern [-1.5, -0.5, 0.5, 1.5] has variance 1.25 at spread 1
    x = np.array([[-1.5, -0.5, 0.5, 1.5], [-1.5, -0.5, 0.5, 1.5]]) * np.array([[1.0], [spread]])
    d = x.shape[-1]
    assert np.isclose(x[1].var(), 5e-6)
    exec(check, {"np": np, "x": x, "d": d, "eps": eps, "layernorm_forward": layernorm_forward})

    def over_tokens(x, gamma, beta):
        mean, var = x.mean(0, keepdims=True), x.var(0, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * gamma + beta, None
    x = np.random.default_rng(1).normal(size=(3, 4))
    with pytest.raises(AssertionError):
        exec(check, {"np": np, "x": x, "d": 4, "eps": eps, "layernorm_forward": over_tokens})
