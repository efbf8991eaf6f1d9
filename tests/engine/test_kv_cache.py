"""The KV cache gives what the full forward gives: the same logits at every position and the same generated ids."""
import numpy as np
import pytest

from engine import model
from engine.config import GPT2_SMALL, GPTConfig
from engine.errors import LayerwiseError
from engine.generate import generate
from engine.kv_cache import attention_step_forward, cache_floats, decode_step, prefill, prefill_by_steps

V = 13
# xavier weights are far larger than gpt2's 0.02, so the next-id distributions are peaked, not nearly uniform
BASE = GPTConfig(vocab_size=V, seq_len=8, emb_dim=12, num_heads=3, ff_dim=24, num_layers=2, init="xavier")
VARIANTS = {
    "pre-LN LayerNorm": BASE,
    "post-LN LayerNorm": BASE.with_overrides(placement="post"),
    "pre-LN RMSNorm": BASE.with_overrides(norm="rmsnorm"),
    "post-LN RMSNorm ReLU": BASE.with_overrides(norm="rmsnorm", placement="post", activation="relu"),
    "one block, one head": BASE.with_overrides(num_layers=1, num_heads=1),
}


@pytest.mark.parametrize("name", VARIANTS)
def test_each_step_gives_the_full_forwards_logits_at_its_position(name):
    config = VARIANTS[name]
    params = model.init_params(config, seed=4)
    ids = np.random.default_rng(5).integers(0, V, size=(2, config.seq_len))  # (B, T), two sequences at once
    full, _ = model.forward(params, ids, config)  # (B, T, V)
    logits, past = prefill(params, ids[:, :1], config)
    np.testing.assert_allclose(logits, full[:, 0], rtol=0, atol=1e-12)
    for t in range(1, config.seq_len):
        logits, past = decode_step(params, ids[:, t], t, config, past)
        np.testing.assert_allclose(logits, full[:, t], rtol=0, atol=1e-12, err_msg=f"{name}, position {t}")


def test_the_cache_grows_by_one_position_per_block_and_keeps_what_it_held():
    config = BASE
    params = model.init_params(config, seed=0)
    _, past = prefill(params, np.array([[1, 2, 3]]), config)
    assert len(past) == config.num_layers
    assert all(k.shape == v.shape == (1, 3, 3, 4) for k, v in past)  # (B, H, P, hs) with hs = 12 / 3
    _, grown = decode_step(params, [4], 3, config, past)
    for (k, v), (k2, v2) in zip(past, grown):
        assert k2.shape == v2.shape == (1, 3, 4, 4)
        assert np.array_equal(k2[:, :, :3], k) and np.array_equal(v2[:, :, :3], v)  # old positions untouched


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("temperature, top_k", [(1.0, None), (0.7, None), (1.5, 4), (1.0, 1), (0.3, 2)])
def test_cached_generation_gives_the_same_ids_across_the_seq_len_boundary(name, temperature, top_k):
    config = VARIANTS[name]
    params = model.init_params(config, seed=1)
    for seed in range(4):
        prompt = np.random.default_rng(100 + seed).integers(0, V, size=1 + seed)  # 1 to 4 ids
        new = 3 * config.seq_len  # well past seq_len: the window slides for the last 2 T steps
        plain = generate(params, config, prompt, new, np.random.default_rng(seed), temperature, top_k)
        cached = generate(params, config, prompt, new, np.random.default_rng(seed), temperature, top_k,
                          kv_cache=True)
        assert plain.tolist() == cached.tolist(), f"{name}, seed {seed}"


def test_a_prompt_longer_than_seq_len_gives_the_same_ids_with_the_cache():
    params = model.init_params(BASE, seed=2)
    prompt = np.arange(20) % V
    plain = generate(params, BASE, prompt, 10, np.random.default_rng(7))
    cached = generate(params, BASE, prompt, 10, np.random.default_rng(7), kv_cache=True)
    assert plain.tolist() == cached.tolist()


def test_decode_step_refuses_a_position_the_cache_cannot_serve():
    params = model.init_params(BASE, seed=0)
    _, past = prefill(params, np.array([[1, 2, 3]]), BASE)
    with pytest.raises(LayerwiseError, match=r"decode_step: the cache holds 3 positions but the new id is at "
                                             r"position 5; it must hold exactly the positions before it"):
        decode_step(params, [1], 5, BASE, past)
    with pytest.raises(LayerwiseError, match=r"decode_step: position must be in \[0, 7\] \(seq_len\), got 8; past "
                                             r"seq_len the window slides and the cache must be rebuilt"):
        decode_step(params, [1], 8, BASE, past)


def test_cache_size_of_gpt2_small_at_its_full_context():
    # a key and a value of 768 numbers per position, 1,024 positions, 12 blocks
    assert cache_floats(GPT2_SMALL, 1024) == 2 * 768 * 1024 * 12 == 18_874_368
    assert cache_floats(BASE, 5) == 2 * 12 * 5 * 2


def test_one_attention_step_is_the_last_row_of_full_causal_attention():
    from engine.attention import attention_forward, split_heads
    rng = np.random.default_rng(3)
    d, H, T = 8, 2, 5
    weights = {name: rng.standard_normal((d, d) if name.startswith("w") else (d,)) for name in
               ("wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo")}
    x = rng.standard_normal((1, T, d))  # (B, T, d)
    full, _ = attention_forward(x, weights, H)  # (B, T, d)
    _, past_cache = attention_forward(x[:, :-1], weights, H)  # keys and values of the first T - 1 positions
    past = (past_cache["sdp"]["k"], past_cache["sdp"]["v"])
    y, (k, v) = attention_step_forward(x[:, -1:], weights, H, past)
    np.testing.assert_allclose(y[:, 0], full[:, -1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(k, split_heads(x @ weights["wk"] + weights["bk"], H), rtol=0, atol=1e-12)
    assert v.shape == (1, H, T, d // H)


def test_a_cache_filled_step_by_step_is_the_prefills():
    params = model.init_params(BASE, seed=6)
    ids = np.random.default_rng(7).integers(0, V, size=(2, 5))  # (B, T)
    logits, past = prefill(params, ids, BASE)
    stepped_logits, stepped = prefill_by_steps(params, ids, BASE)
    np.testing.assert_allclose(stepped_logits, logits, rtol=0, atol=1e-12)
    for (k, v), (k_stepped, v_stepped) in zip(past, stepped):
        assert k_stepped.shape == k.shape == (2, BASE.num_heads, 5, BASE.emb_dim // BASE.num_heads)
        np.testing.assert_allclose(k_stepped, k, rtol=0, atol=1e-12)
        np.testing.assert_allclose(v_stepped, v, rtol=0, atol=1e-12)
