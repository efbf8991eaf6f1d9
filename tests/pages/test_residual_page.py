"""The Residual page: its inline values and typed answers against hand calculations and the engine."""

import numpy as np

from engine import config, linear, model, residual
from engine.examples import KINDS

from page_values import REPO, page_text, shown_texts

PAGE = page_text("layers/residual.md")

SHOWN = shown_texts("layers/residual.md")


def test_inline_values_match_hand_calculations():
    ln_params = 12 * 2 * (2 * 768) + 2 * 768  # GPT-2 small: two norms per block, one final, 2 d each
    assert ln_params == 38_400
    assert SHOWN == ["38,400", "[1.1, -0.8]", "[0.1, 0.1]", "[0.5, -0.5]", "[1.5, -1.5]", f"{0.7 ** 12:.3f}"]
    assert SHOWN[5] == "0.014"  # 0.7^12 = 0.0138...: the signal left after 12 layers of gain 0.7


def test_the_identity_term_is_not_a_lower_bound():
    # f(v) = v W with W = -0.9 I: skip 1 plus branch -0.9 = 0.1 per entry, below the identity's 1
    assert SHOWN[2] == "[0.1, 0.1]" and "$W = -0.9\\,I$" in PAGE
    assert 1 - 0.05 == 0.95 and "($-0.05\\,I$ gives\n$0.95\\,I$)" in PAGE
    assert "never falls below" not in PAGE and "that floor is" not in PAGE


def test_the_widget_starts_from_the_numbers_the_prose_names():
    defaults = KINDS["residual"].defaults()
    x, W = np.array(defaults["x"], float), np.array(defaults["W"], float)
    assert (x.tolist(), W.tolist(), defaults["dy"]) == ([1, -1], [[0.5, 0], [0, 0.5]], [1, 1])
    fx = [1 * 0.5 + -1 * 0, 1 * 0 + -1 * 0.5]  # x W by hand
    assert SHOWN[3] == "[0.5, -0.5]" and fx == [0.5, -0.5]
    assert SHOWN[4] == "[1.5, -1.5]"  # x + f(x)
    assert "$x = [1, -1]$, $W = 0.5\\,I$ and\n$dy = (1, 1)$" in PAGE


def test_the_layernorm_count_links_to_its_anchor():
    assert "(layernorm.md#gpt2-small-layernorm-parameters)" in PAGE
    assert "{ #gpt2-small-layernorm-parameters }" in page_text("layers/layernorm.md")


def test_gradient_one_and_a_half():
    v, W = np.array([1.0, -1.0]), 0.5 * np.eye(2)
    fv, f_cache = linear.linear_forward(v, W, np.zeros(2))
    y, r_cache = residual.residual_forward(v, fv)
    skip, dfv = residual.residual_backward(np.ones(2), r_cache)  # loss sum(y): dy = 1
    through_f = linear.linear_backward(dfv, f_cache)[0]
    assert skip.tolist() == [1, 1] and through_f.tolist() == [0.5, 0.5]
    assert (skip + through_f).tolist() == [1.5, 1.5]
    assert "0.5 instead of 1.5" in PAGE and "The two add up to 1.5" in PAGE


def test_knowledge_check_jacobians():
    assert round(1.01 ** 12, 2) == 1.13 and "\\approx 1.13\\, I" in PAGE
    assert np.isclose(0.01 ** 12, 1e-24) and "= 10^{-24} I" in PAGE


def test_pre_ln_has_a_final_norm_and_post_ln_does_not():
    sizes = dict(vocab_size=5, seq_len=4, emb_dim=8, num_heads=2, ff_dim=16, num_layers=2)
    pre = model.init_params(config.GPTConfig(**sizes, placement="pre"))
    post = model.init_params(config.GPTConfig(**sizes, placement="post"))
    assert "lnf_g" in pre and "lnf_g" not in post
    assert config.GPTConfig().placement == "pre" and '`GPTConfig.placement = "pre"` (the default)' in PAGE


def test_the_cited_engine_tests_exist():
    gradients, whole_model = "tests/engine/test_layer_gradients.py", "tests/engine/test_model.py"
    assert f"`test_residual` in `{gradients}`" in PAGE
    assert f"`test_loss_and_grads_match_finite_differences` in `{whole_model}`" in PAGE.replace("\n", " ")
    assert "def test_residual(" in (REPO / gradients).read_text()
    source = (REPO / whole_model).read_text()
    cited = source[source.index("def test_loss_and_grads_match_finite_differences(") - 400:]
    assert '{"placement": "post"}' in cited[:400]  # its parameters cover post-LN as well as the default pre-LN


def test_the_prose_describes_the_widget_defaults():
    defaults = KINDS["residual"].defaults()
    assert (defaults["gain"], defaults["layers"]) == (0.7, 12)
    assert "with the default gain 0.7 and 12 layers" in PAGE
    assert defaults["x"] == [1, -1] and defaults["W"] == [[0.5, 0], [0, 0.5]] and defaults["dy"] == [1, 1]
