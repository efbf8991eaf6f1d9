"""Grouped-query attention's sizes: the KV cache per token and the attention parameters, worked by hand, and the
Llama-3-8B-like config against its published parameter count."""
import pytest

from engine import gqa
from engine.config import GPT2_SMALL, LLAMA3_8B
from engine.errors import ConfigError
from engine.model import param_count


def test_cache_bytes_per_token_by_hand():
    # Llama-3-8B-like: 2 (key, value) x 32 layers x 8 heads x 128 channels x 2 bytes = 131,072 bytes per token
    assert gqa.kv_bytes_per_token(LLAMA3_8B) == 2 * 32 * 8 * 128 * 2 == 131072
    rows = gqa.kv_cache_table(LLAMA3_8B, context=8192)
    assert [row[0] for row in rows] == ["multi-head (G = 32)", "grouped-query (G = 8)", "multi-query (G = 1)"]
    assert [row[1] for row in rows] == [524288, 131072, 16384]
    assert rows[1][2] == 131072 * 8192 == 2**30  # one GiB for a full 8K context
    # GPT-2 small, float32: 2 x 12 layers x 768 x 4 bytes
    assert gqa.kv_bytes_per_token(GPT2_SMALL, bytes_per_number=4) == 2 * 12 * 768 * 4


def test_llama3_8b_like_count_is_the_published_one_plus_our_biases():
    # Meta's 8B model has 8,030,261,248 parameters; the engine adds q, k, v, o biases (32 x (4096 + 1024 + 1024 +
    # 4096)) and a head bias (128,256)
    assert param_count(LLAMA3_8B) == 8_030_261_248 + 32 * (4096 + 1024 + 1024 + 4096) + 128256


def test_a_bad_context_is_named():
    with pytest.raises(ConfigError, match="context must be >= 1"):
        gqa.kv_cache_table(GPT2_SMALL, 0)
