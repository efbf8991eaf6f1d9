"""The whole model: parameter layout and count, full-model gradient check, causality and the initial loss."""
import math

import numpy as np
import pytest

from engine import model
from engine.config import GPTConfig
from engine.errors import ConfigError, LayerwiseError
from engine.gradcheck import check_gradients, numerical_gradient

TINY = GPTConfig(vocab_size=5, seq_len=4, emb_dim=4, num_heads=2, ff_dim=6, num_layers=2)


def random_params(config, seed):
    """Parameters with O(1) entries so every gradient is large enough for a meaningful relative error."""
    rng = np.random.default_rng(seed)
    return {name: (1.0 if name.endswith("_g") else 0.0) + 0.5 * rng.standard_normal(array.shape)
            for name, array in model.init_params(config).items()}


def assert_matches_finite_differences(loss_fn, params, grads):
    """Relative error < 1e-6 for every parameter; key biases are checked in absolute terms because their true
    gradient is exactly 0 (q . bk shifts a whole row of scores, which softmax ignores)."""
    grads = dict(grads)
    key_biases = {name: grads.pop(name) for name in list(grads) if name.endswith(".bk")}
    errors = check_gradients(loss_fn, params, grads)
    worst = max(errors, key=errors.get)
    assert errors[worst] < 1e-6, f"{worst}: relative error {errors[worst]:.2e}"
    for name, grad in key_biases.items():
        assert np.abs(grad).max() < 1e-12
        assert np.abs(numerical_gradient(loss_fn, params[name])).max() < 1e-8


def batch(config, seed, B=2):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, config.vocab_size, (B, config.seq_len + 1))
    return ids[:, :-1], ids[:, 1:]


def test_parameter_names_and_count_for_the_default_sizes():
    config = GPTConfig(vocab_size=10)
    params = model.init_params(config)
    for name in ("tok_emb", "pos_emb", "b0.wq", "b1.ff2_w", "b0.ln1_g", "lnf_g", "lnf_b", "head_w", "head_b"):
        assert name in params
    # by hand: embeddings (10 + 16) * 32 = 832; per block 4*32*32 + 4*32 (attention) + 2*32*128 + 128 + 32 (MLP)
    # + 2*2*32 (norms) = 12,704; final norm 64; head 32*10 + 10 = 330. Total 832 + 2*12,704 + 64 + 330.
    assert model.param_count(config) == 26_634 == model.count_params(params)


@pytest.mark.parametrize("overrides", [
    {}, {"norm": "rmsnorm"}, {"placement": "post"}, {"norm": "rmsnorm", "placement": "post", "num_layers": 3},
])
def test_closed_form_count_matches_the_arrays(overrides):
    config = TINY.with_overrides(**overrides)
    assert model.param_count(config) == model.count_params(model.init_params(config))


def test_init_schemes_and_residual_scaling():
    config = GPTConfig(vocab_size=50, emb_dim=64, ff_dim=256, num_layers=8)
    params = model.init_params(config, seed=1)
    assert params["b0.wq"].std() == pytest.approx(0.02, rel=0.05)
    assert params["b0.wo"].std() == pytest.approx(0.02 / math.sqrt(16), rel=0.05)
    assert params["b3.ff2_w"].std() == pytest.approx(0.02 / math.sqrt(16), rel=0.05)
    assert np.all(params["b0.ln1_g"] == 1) and np.all(params["b0.bq"] == 0)
    xavier = model.init_params(config.with_overrides(init="xavier"), seed=1)
    assert np.abs(xavier["b0.ff1_w"]).max() <= math.sqrt(6 / (64 + 256))
    assert model.init_params(config.with_overrides(dtype="float32"))["b0.wq"].dtype == np.float32


@pytest.mark.parametrize("overrides", [
    {},
    {"activation": "relu", "norm": "rmsnorm"},
    {"placement": "post"},
    {"placement": "post", "norm": "rmsnorm", "activation": "relu"},
])
def test_loss_and_grads_match_finite_differences(overrides):
    config = TINY.with_overrides(**overrides)
    params = random_params(config, seed=3)
    ids, targets = batch(config, seed=4)
    loss, grads = model.loss_and_grads(params, ids, targets, config)
    assert set(grads) == set(params)
    assert_matches_finite_differences(lambda: model.evaluate_loss(params, ids, targets, config), params, grads)


def test_loss_and_grads_with_dropout_match_finite_differences_for_a_fixed_mask():
    config = TINY.with_overrides(dropout=0.3)
    params = random_params(config, seed=5)
    ids, targets = batch(config, seed=6)

    def loss_with_the_same_masks():  # a fresh generator with the same seed redraws the same masks
        return model.loss_and_grads(params, ids, targets, config, rng=np.random.default_rng(9))[0]

    _, grads = model.loss_and_grads(params, ids, targets, config, rng=np.random.default_rng(9))
    assert loss_with_the_same_masks() != model.evaluate_loss(params, ids, targets, config)  # dropout is active
    assert_matches_finite_differences(loss_with_the_same_masks, params, grads)


def test_attention_rows_are_causal_and_sum_to_one():
    config = TINY
    logits, cache = model.forward(random_params(config, 7), batch(config, 8)[0], config)
    for weights in model.attention_weights(cache):  # (B, H, T, T)
        assert weights.shape == (2, 2, 4, 4)
        np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
        assert np.all(np.triu(np.ones((4, 4)), k=1) * weights == 0)  # nothing from the future
        assert np.all(weights[..., np.tril(np.ones((4, 4), dtype=bool))] > 0)


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_changing_a_future_token_never_changes_earlier_logits(placement):
    config = TINY.with_overrides(placement=placement)
    params = random_params(config, 10)
    ids = batch(config, 11)[0]
    before = model.forward(params, ids, config)[0]
    for t in range(config.seq_len):
        changed = ids.copy()
        changed[:, t] = (changed[:, t] + 1) % config.vocab_size
        after = model.forward(params, changed, config)[0]
        np.testing.assert_allclose(after[:, :t], before[:, :t], rtol=0, atol=1e-13)
        assert not np.allclose(after[:, t], before[:, t])  # the changed position itself does see it


def test_initial_loss_is_close_to_log_vocabulary():
    config = GPTConfig(vocab_size=40)
    ids, targets = batch(config, 12, B=8)
    loss = model.evaluate_loss(model.init_params(config, seed=0), ids, targets, config)
    assert abs(loss - math.log(40)) < 0.05


def test_float32_forward_stays_float32():
    config = TINY.with_overrides(dtype="float32")
    ids, targets = batch(config, 13)
    loss, grads = model.loss_and_grads(model.init_params(config), ids, targets, config)
    assert all(g.dtype == np.float32 for g in grads.values())
    assert abs(loss - math.log(5)) < 0.1


def test_forward_rejects_mismatched_parameters_and_inputs():
    params = model.init_params(TINY)
    del params["b1.wq"]
    with pytest.raises(LayerwiseError, match=r"forward: parameters do not match the config: missing \['b1.wq'\], "
                                             r"unexpected none"):
        model.forward(params, np.zeros((1, 4), dtype=int), TINY)
    params = model.init_params(TINY)
    params["head_b"] = np.zeros(6)
    with pytest.raises(LayerwiseError, match=r"forward: parameter head_b has shape \(6,\); expected \(5,\)"):
        model.forward(params, np.zeros((1, 4), dtype=int), TINY)
    params = model.init_params(TINY)
    with pytest.raises(LayerwiseError, match=r"ids has 5 positions but pos_emb has only 4 rows"):
        model.forward(params, np.zeros((1, 5), dtype=int), TINY)
    with pytest.raises(LayerwiseError, match=r"ids must lie in \[0, 5\) for a vocabulary of 5, got 7"):
        model.forward(params, np.full((1, 4), 7), TINY)


def test_model_needs_a_vocabulary_size():
    with pytest.raises(ConfigError, match=r"vocab_size is None; build the vocabulary from a corpus"):
        model.init_params(GPTConfig())


def test_a_parameter_past_the_address_space_is_a_memory_error_naming_it():
    # 8 * 2**61 numbers of 8 bytes: past any 64-bit address space, and far past WebAssembly's 32-bit one
    with pytest.raises(MemoryError, match=r"parameter tok_emb of shape \(8, 2305843009213693952\) holds more numbers"):
        model.init_params(GPTConfig(vocab_size=8, seq_len=4, emb_dim=2**61, num_heads=1, ff_dim=4, num_layers=1))
