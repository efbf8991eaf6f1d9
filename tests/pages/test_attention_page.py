"""The Attention page: its inline values and typed claims against hand calculations and independent checks."""
import math

import numpy as np

from engine import attention, config
from engine.examples import KINDS

from page_values import REPO, page_text, shown_texts

PAGE = page_text("layers/attention.md")

SHOWN = shown_texts("layers/attention.md")


def test_inline_values_match_hand_calculations():
    d, H = 32, 4  # the documented defaults: emb_dim 32, num_heads 4, so hs = 8
    heads_section, key_bias, check = SHOWN[:3], SHOWN[3], SHOWN[4:]
    assert heads_section == ["32", "4,224", "4,224"]  # 4 d^2 + 4 d, for H = 1 and H = 4 alike
    assert float(key_bias) < 1e-12  # rounding only: test_key_bias_has_no_effect_on_the_output shows why
    assert check == [f"{math.sqrt(8):.2f}", "32", "4", "8", "4,096", "128", "4,224", "4,224"]
    assert 4 * d * d == 4096 and 4 * d == 128 and 4 * d * d + 4 * d == 4224
    assert config.GPTConfig().head_size == d // H == 8
    assert "hs = 8" in PAGE and "with d = 32" in PAGE


def test_scores_of_unit_variance_entries_have_variance_hs():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 200_000, 8))
    dots = (q * k).sum(axis=1)
    assert abs(dots.var() - 8) < 0.15  # the claim: variance hs before scaling
    assert abs((dots / math.sqrt(8)).std() - 1) < 0.01  # and standard deviation 1 after


def test_row_zero_claims_and_zero_gradients_into_the_future():
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((3, 2, 5, 3))  # (H, T, hs)
    out, cache = attention.scaled_dot_product_forward(q, k, v)
    assert (cache["weights"][:, 0] == [1, 0, 0, 0, 0]).all()  # "Row t0 of the weights is always [1, 0, 0, 0]"
    np.testing.assert_array_equal(out[:, 0], v[:, 0])  # position 0 outputs v0
    dq, dk, dv = attention.scaled_dot_product_backward(rng.standard_normal(out.shape), cache)
    assert (dq[:, 0] == 0).all()  # position 0's query changes nothing
    # a loss that reads only output row 0 sends no gradient to the keys and values of later positions
    only_first = np.zeros(out.shape)
    only_first[:, 0] = 1.0
    _, dk_first, dv_first = attention.scaled_dot_product_backward(only_first, cache)
    assert (dk_first[:, 1:] == 0).all() and (dv_first[:, 1:] == 0).all()
    assert "Row t0 of the weights is always $[1, 0, \\dots, 0]$" in PAGE


def test_a_plain_reshape_mixes_positions():
    x = np.arange(3 * 4, dtype=float).reshape(1, 3, 4)  # (B, T, d), entry = 4 t + channel
    heads = attention.split_heads(x, 2)  # (B, H, T, hs)
    # head 1 of position 2 owns channels 2 and 3 of position 2
    assert heads[0, 1, 2].tolist() == [10.0, 11.0]
    plain = x.reshape(1, 2, 3, 2)  # the mistake: "head 0" now holds channels of positions 0 and 1
    assert plain[0, 0, 2].tolist() == [4.0, 5.0]  # its "position 2" is really position 1, channels 0 and 1
    assert not np.array_equal(plain, heads)
    assert "`q.reshape(B, H, T, hs)`" in PAGE and "`transpose(0, 2, 1, 3)`" in PAGE


def test_the_cited_engine_test_exists():
    cited = "tests/engine/test_layer_gradients.py"
    assert f"`test_multi_head_attention_including_every_parameter` in `{cited}`" in PAGE
    assert "def test_multi_head_attention_including_every_parameter(" in (REPO / cited).read_text()


def test_the_prose_describes_the_widget_defaults():
    assert np.shape(KINDS["attention"].defaults()["q"]) == (4, 2)
    assert "One head with four positions and a head size of 2." in PAGE


def causal_attention(x, wq, wk, wv, bk, heads):
    """Causal multi-head attention written out here (no output projection): x (T, d) -> (T, d)."""
    T, d = x.shape
    hs = d // heads
    q, k, v = x @ wq, x @ wk + bk, x @ wv
    out = np.empty_like(x)
    for h in range(heads):
        cols = slice(h * hs, (h + 1) * hs)
        scores = q[:, cols] @ k[:, cols].T / math.sqrt(hs)
        scores[np.triu_indices(T, 1)] = -np.inf
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        out[:, cols] = (weights / weights.sum(axis=1, keepdims=True)) @ v[:, cols]
    return out


def test_key_bias_has_no_effect_on_the_output():
    # b_k adds q_t . b_k to all of row t's scores; a softmax ignores that, so the output does not move at all
    rng = np.random.default_rng(5)
    x, wq, wk, wv = rng.normal(size=(6, 8)), rng.normal(size=(8, 8)), rng.normal(size=(8, 8)), rng.normal(size=(8, 8))
    base = causal_attention(x, wq, wk, wv, np.zeros(8), heads=2)
    np.testing.assert_allclose(causal_attention(x, wq, wk, wv, rng.normal(size=8) * 5, heads=2), base, atol=1e-12)
    assert "its gradient is exactly zero" in PAGE
