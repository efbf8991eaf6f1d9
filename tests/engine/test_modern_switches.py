"""The modern switches (rotary positions, SwiGLU, grouped-query attention): finite-difference gradients, the KV
cache against the full forward, parameter and cache counts by hand, and the messages for bad settings."""
import numpy as np
import pytest

from engine import attention, model
from engine.__main__ import main
from engine.checkpoint import load_checkpoint
from engine.config import GPTConfig, parse_overrides
from engine.errors import ConfigError
from engine.gradcheck import check_gradients, check_layer
from engine.kv_cache import cache_floats, decode_step, prefill
from engine.rope import rope_backward, rope_forward, rope_tables
from engine.swiglu import matched_width, swiglu_backward, swiglu_forward

TOLERANCE = 1e-6
TINY = GPTConfig(vocab_size=5, seq_len=4, emb_dim=8, num_heads=4, ff_dim=6, num_layers=2)
SWITCHES = {
    "rope": {"positions": "rope"},
    "swiglu": {"ffn": "swiglu"},
    "grouped-query": {"kv_heads": 2},
    "multi-query": {"kv_heads": 1},
    "all, rmsnorm": {"positions": "rope", "ffn": "swiglu", "kv_heads": 2, "norm": "rmsnorm"},
    "all, post-LN": {"positions": "rope", "ffn": "swiglu", "kv_heads": 1, "placement": "post"},
}


def normal(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def assert_all_close(errors):
    assert errors, "nothing was checked"
    worst = max(errors, key=errors.get)
    assert errors[worst] < TOLERANCE, f"gradient of {worst}: relative error {errors[worst]:.2e}"


def test_rope_backward_matches_finite_differences():
    tables = rope_tables(np.arange(5), 6, base=100.0)
    errors = check_layer(lambda x: (rope_forward(x, tables), None), lambda dy, _: rope_backward(dy, tables),
                         {"x": normal(1, 2, 3, 5, 6)}, ("x",))
    assert_all_close(errors)


def test_swiglu_backward_matches_finite_differences():
    inputs = {"x": normal(2, 2, 3, 4), "w_gate": normal(3, 4, 5), "w_up": normal(4, 4, 5), "w_down": normal(5, 5, 4)}
    assert_all_close(check_layer(swiglu_forward, swiglu_backward, inputs, tuple(inputs)))


@pytest.mark.parametrize("kv_heads, with_rope", [(2, False), (1, False), (4, True), (2, True), (1, True)])
def test_attention_with_shared_keys_and_rotary_positions_matches_finite_differences(kv_heads, with_rope):
    d, H, T = 8, 4, 5
    kv = kv_heads * d // H
    shapes = {"wq": (d, d), "bq": (d,), "wk": (d, kv), "bk": (kv,), "wv": (d, kv), "bv": (kv,), "wo": (d, d),
              "bo": (d,)}
    params = {name: normal(10 + i, *shape) for i, (name, shape) in enumerate(shapes.items())}
    x = normal(30, 2, T, d)
    rope = rope_tables(np.arange(T), d // H, base=10.0) if with_rope else None
    y, cache = attention.attention_forward(x, params, H, kv_heads, rope)
    R = normal(31, *y.shape)
    dx, grads = attention.attention_backward(R, cache)

    def scalar():
        return float(np.sum(attention.attention_forward(x, params, H, kv_heads, rope)[0] * R))

    if not with_rope:  # without rotation q . bk shifts a whole row of scores, which softmax ignores: exactly 0
        assert np.abs(grads.pop("bk")).max() < 1e-12
    assert_all_close(check_gradients(scalar, {"x": x, **params}, {"x": dx, **grads}))


@pytest.mark.parametrize("name", SWITCHES)
def test_whole_model_gradients_match_finite_differences(name):
    config = TINY.with_overrides(**SWITCHES[name])
    rng = np.random.default_rng(3)
    params = {key: (1.0 if key.endswith("_g") else 0.0) + 0.5 * rng.standard_normal(array.shape)
              for key, array in model.init_params(config).items()}
    ids = rng.integers(0, config.vocab_size, (2, config.seq_len + 1))
    loss, grads = model.loss_and_grads(params, ids[:, :-1], ids[:, 1:], config)
    assert set(grads) == set(params)
    if config.positions == "learned":
        for key in [key for key in grads if key.endswith(".bk")]:
            assert np.abs(grads.pop(key)).max() < 1e-12
    assert_all_close(check_gradients(lambda: model.evaluate_loss(params, ids[:, :-1], ids[:, 1:], config), params,
                                     grads))


@pytest.mark.parametrize("name", SWITCHES)
def test_each_cached_step_gives_the_full_forwards_logits(name):
    config = GPTConfig(vocab_size=13, seq_len=8, emb_dim=12, num_heads=6, ff_dim=16, num_layers=2, init="xavier",
                       **{key: value for key, value in SWITCHES[name].items() if key != "kv_heads"},
                       kv_heads=SWITCHES[name].get("kv_heads") and {1: 1, 2: 3}[SWITCHES[name]["kv_heads"]])
    params = model.init_params(config, seed=4)
    ids = np.random.default_rng(5).integers(0, 13, size=(2, config.seq_len))
    full, _ = model.forward(params, ids, config)  # (B, T, V)
    logits, past = prefill(params, ids[:, :3], config)
    np.testing.assert_allclose(logits, full[:, 2], rtol=0, atol=1e-12)
    for t in range(3, config.seq_len):
        logits, past = decode_step(params, ids[:, t], t, config, past)
        np.testing.assert_allclose(logits, full[:, t], rtol=0, atol=1e-12, err_msg=f"{name}, position {t}")
    assert all(k.shape == v.shape == (2, config.num_kv_heads, config.seq_len, 2) for k, v in past)  # (B, G, P, hs)


def test_rotary_scores_depend_only_on_the_offset_between_query_and_key():
    q, k = normal(6, 8), normal(7, 8)  # one head of size 8
    tables = rope_tables(np.arange(40), 8, base=10.0)
    rotated_q, rotated_k = rope_forward(np.tile(q, (40, 1)), tables), rope_forward(np.tile(k, (40, 1)), tables)
    scores = rotated_q @ rotated_k.T  # (40, 40): query at p, key at s
    for offset in (0, 3, 17):
        diagonal = np.diagonal(scores, -offset)  # every (p, p - offset) pair
        np.testing.assert_allclose(diagonal, diagonal[0], rtol=0, atol=1e-12)
    assert abs(scores[5, 5] - scores[5, 2]) > 1e-3  # and the offset does matter


def test_parameter_counts_by_hand():
    # d = 8, H = 4 so hs = 2; G = 1: keys and values 8 x 2 each. V = 5, T = 4, F = 6, L = 2, LayerNorm pre-LN.
    config = TINY.with_overrides(positions="rope", ffn="swiglu", kv_heads=1)
    attention_per_block = 8 * 8 + 8 + 8 * 2 + 2 + 8 * 2 + 2 + 8 * 8 + 8  # q, k, v, o = 180
    swiglu_per_block = 3 * 8 * 6  # 144, no biases
    norms = 2 * 2 * 16 + 16  # two LayerNorms a block, the final one
    expected = 5 * 8 + 2 * (attention_per_block + swiglu_per_block) + norms + 8 * 5 + 5  # no position table
    assert model.param_count(config) == expected == 813
    for name in SWITCHES:
        config = TINY.with_overrides(**SWITCHES[name])
        assert model.param_count(config) == model.count_params(model.init_params(config)), name


def test_swiglu_at_two_thirds_width_has_the_mlps_matrix_parameters():
    assert matched_width(3072) == 2048 and 3 * 768 * 2048 == 2 * 768 * 3072
    assert matched_width(4 * 4096, multiple_of=256) == 11008  # Llama-7B's hidden width
    assert matched_width(10, multiple_of=4) == 8  # int(6.67) = 6, rounded up to 8


def test_kv_cache_holds_one_key_and_value_per_key_head():
    config = GPTConfig(vocab_size=10, emb_dim=32, num_heads=8, num_layers=3)
    # 2 (key and value) x L 3 x context 10 x G hs
    assert cache_floats(config, 10) == 2 * 3 * 10 * 32
    assert cache_floats(config.with_overrides(kv_heads=2), 10) == 2 * 3 * 10 * 8
    assert cache_floats(config.with_overrides(kv_heads=1), 10) == 2 * 3 * 10 * 4


def test_defaults_are_gpt2s_and_the_switches_parse_from_the_command_line():
    config = GPTConfig()
    assert (config.positions, config.ffn, config.num_kv_heads, config.tokenizer) == ("learned", "mlp", 4, "char")
    overrides = parse_overrides(["positions=rope", "rope_base=500000", "ffn=swiglu", "kv_heads=1",
                                 "tokenizer=bpe:300"])
    assert overrides == {"positions": "rope", "rope_base": 500000.0, "ffn": "swiglu", "kv_heads": 1,
                         "tokenizer": "bpe:300"}
    assert GPTConfig.from_dict(GPTConfig(**overrides).to_dict()) == GPTConfig(**overrides)


@pytest.mark.parametrize("overrides, message", [
    ({"kv_heads": 3}, r"kv_heads \(3\) must divide num_heads \(4\)"),
    ({"kv_heads": 0}, r"kv_heads must be >= 1, got 0"),
    ({"positions": "sinusoidal"}, r"positions must be one of learned, rope, got 'sinusoidal'"),
    ({"ffn": "gelu"}, r"ffn must be one of mlp, swiglu, got 'gelu'"),
    ({"rope_base": 1}, r"rope_base must be > 1"),
    ({"positions": "rope", "emb_dim": 12}, r"head size emb_dim / num_heads must be even, got 3"),
    ({"tokenizer": "bpe:100"}, r"tokenizer must be 'char' or 'bpe:N' with a vocabulary N >= 256"),
    ({"tokenizer": "words"}, r"got 'words'"),
])
def test_bad_switches_are_named(overrides, message):
    with pytest.raises(ConfigError, match=message):
        GPTConfig(**overrides)


def test_the_command_line_trains_saves_and_talks_with_the_switches(tmp_path, capsys):
    out = tmp_path / "modern.npz"
    assert main(["train", "--steps", "2", "--eval-every", "1", "--out", str(out), "--set", "positions=rope",
                 "--set", "ffn=swiglu", "--set", "kv_heads=2", "--set", "norm=rmsnorm"]) == 0
    _, config, _, _ = load_checkpoint(out)
    assert (config.positions, config.ffn, config.kv_heads, config.norm) == ("rope", "swiglu", 2, "rmsnorm")
    capsys.readouterr()
    talk = ["talk", "--checkpoint", str(out), "--prompt", "Shall I", "--tokens", "30"]
    assert main(talk) == 0
    plain = capsys.readouterr().out
    assert main(talk + ["--kv-cache"]) == 0
    assert capsys.readouterr().out == plain and plain.startswith("Shall I")
    assert main(["train", "--steps", "1", "--set", "kv_heads=3"]) == 2
    assert "kv_heads (3) must divide num_heads (4)" in capsys.readouterr().err
