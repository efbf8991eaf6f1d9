"""GPTConfig: defaults, and a ConfigError naming the key for every unknown key, wrong type or bad value."""
import pytest

from engine.config import GPTConfig, parse_overrides
from engine.errors import ConfigError


def test_defaults_from_the_issue():
    config = GPTConfig()
    assert (config.seq_len, config.emb_dim, config.num_heads, config.ff_dim, config.num_layers) == (16, 32, 4, 128, 2)
    assert (config.norm, config.placement, config.init, config.dropout) == ("layernorm", "pre", "gpt2", 0.0)
    assert config.vocab_size is None and config.head_size == 8


def test_unknown_key_is_named():
    with pytest.raises(ConfigError, match=r"GPTConfig: unknown key 'n_embd'; known keys are vocab_size, seq_len"):
        GPTConfig.from_dict({"n_embd": 64})
    with pytest.raises(ConfigError, match=r"unknown key 'layers'"):
        GPTConfig().with_overrides(layers=3)


@pytest.mark.parametrize("key, value, message", [
    ("seq_len", "16", r"GPTConfig: seq_len must be an integer, got str '16'"),
    ("emb_dim", 32.0, r"GPTConfig: emb_dim must be an integer, got float 32.0"),
    ("num_layers", True, r"GPTConfig: num_layers must be an integer, got bool True"),
    ("num_heads", 0, r"GPTConfig: num_heads must be >= 1, got 0"),
    ("norm", "batchnorm", r"GPTConfig: norm must be one of layernorm, rmsnorm, got 'batchnorm'"),
    ("activation", 1, r"GPTConfig: activation must be one of gelu, relu, got 1"),
    ("placement", "middle", r"GPTConfig: placement must be one of pre, post, got 'middle'"),
    ("init", "zeros", r"GPTConfig: init must be one of gpt2, xavier, he, got 'zeros'"),
    ("dropout", 1.0, r"GPTConfig: dropout must lie in \[0, 1\), got 1.0"),
    ("dropout", "0.1", r"GPTConfig: dropout must be a number, got str '0.1'"),
    ("dtype", "float16", r"GPTConfig: dtype must be one of float64, float32, got 'float16'"),
    ("vocab_size", -3, r"GPTConfig: vocab_size must be >= 1, got -3"),
])
def test_wrong_type_or_value_is_named(key, value, message):
    with pytest.raises(ConfigError, match=message):
        GPTConfig.from_dict({key: value})


def test_heads_must_divide_channels():
    with pytest.raises(ConfigError, match=r"emb_dim \(30\) must be divisible by num_heads \(4\)"):
        GPTConfig(emb_dim=30)


def test_dict_round_trip_and_integer_dropout():
    config = GPTConfig(vocab_size=7, norm="rmsnorm", dropout=0)
    assert GPTConfig.from_dict(config.to_dict()) == config
    assert isinstance(config.dropout, float)


def test_command_line_overrides_are_typed():
    assert parse_overrides(["emb_dim=64", "norm=rmsnorm", "dropout=0.1"]) == {
        "emb_dim": 64, "norm": "rmsnorm", "dropout": 0.1}
    with pytest.raises(ConfigError, match=r"GPTConfig: emb_dim must be an integer, got 'big'"):
        parse_overrides(["emb_dim=big"])
    with pytest.raises(ConfigError, match=r"config override 'emb_dim' must look like key=value"):
        parse_overrides(["emb_dim"])
    with pytest.raises(ConfigError, match=r"GPTConfig: unknown key 'size'"):
        parse_overrides(["size=3"])
