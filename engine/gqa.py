"""What grouped-query attention saves: the KV cache's size per token for multi-head, grouped and multi-query
attention, from the configuration alone.

The mechanism itself lives in ``engine.attention`` (``expand_kv`` shares each key/value head with a group of query
heads, ``reduce_kv`` sums their gradients back); this module puts numbers on the saving, for the pages.
"""
from .errors import ConfigError
from .kv_cache import cache_floats
from .model import param_count_by_part


def kv_bytes_per_token(config, bytes_per_number=2):
    """Bytes the KV cache grows by per token: a key and a value of G hs numbers in each of the L blocks (2 bytes a
    number in 16-bit inference)."""
    return cache_floats(config, 1) * bytes_per_number


def attention_variants(config):
    """``{name: config}``: multi-head (G = H), the config's own grouping when it has one, and multi-query (G = 1)."""
    H = config.num_heads
    variants = {f"multi-head (G = {H})": config.with_overrides(kv_heads=None)}
    if config.kv_heads not in (None, H, 1):
        variants[f"grouped-query (G = {config.kv_heads})"] = config
    variants["multi-query (G = 1)"] = config.with_overrides(kv_heads=1)
    return variants


def kv_cache_table(config, context, bytes_per_number=2):
    """Rows ``(variant, bytes per token, bytes for ``context`` tokens, attention parameters)`` for each variant."""
    if context < 1:
        raise ConfigError(f"kv_cache_table: context must be >= 1 token, got {context}")
    return [(name, kv_bytes_per_token(variant, bytes_per_number),
             kv_bytes_per_token(variant, bytes_per_number) * context, param_count_by_part(variant)["attention"])
            for name, variant in attention_variants(config).items()]
