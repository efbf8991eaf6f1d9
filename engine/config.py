"""The model's sizes and choices in one frozen dataclass, validated on construction.

Every way in (keyword arguments, ``from_dict`` from a checkpoint's JSON, ``key=value`` strings on the command line)
passes the same checks, so an unknown key, a wrong type or a bad value is a ``ConfigError`` naming the key.
"""
import dataclasses
from dataclasses import dataclass

from .errors import ConfigError

CHOICES = {
    "norm": ("layernorm", "rmsnorm"),
    "activation": ("gelu", "relu"),
    "placement": ("pre", "post"),
    "init": ("gpt2", "xavier", "he"),
    "dtype": ("float64", "float32"),
    "positions": ("learned", "rope"),
    "ffn": ("mlp", "swiglu"),
}
NUMBER_FIELDS = ("dropout", "rope_base")  # the float fields; every other non-choice field is an integer
OPTIONAL_FIELDS = ("vocab_size", "kv_heads")  # may be None
BPE_PREFIX = "bpe:"
BYTE_VOCAB = 256  # a byte-level BPE vocabulary starts from the 256 byte values


def tokenizer_vocab_size(tokenizer):
    """None for ``"char"`` (the corpus fixes the vocabulary), N for ``"bpe:N"``; anything else is a ConfigError."""
    if tokenizer == "char":
        return None
    text = tokenizer[len(BPE_PREFIX):] if isinstance(tokenizer, str) and tokenizer.startswith(BPE_PREFIX) else None
    if text is None or not text.isdigit() or int(text) < BYTE_VOCAB:
        raise ConfigError(f"GPTConfig: tokenizer must be 'char' or 'bpe:N' with a vocabulary N >= {BYTE_VOCAB} "
                          f"(the bytes, then one token per merge), got {tokenizer!r}")
    return int(text)


@dataclass(frozen=True)
class GPTConfig:
    """Sizes and choices of the tiny GPT. ``vocab_size`` is None until a corpus fixes it."""

    vocab_size: int | None = None  # V: number of distinct characters in the corpus
    seq_len: int = 16  # T: the longest context the model sees
    emb_dim: int = 32  # d: channels of the residual stream
    num_heads: int = 4  # H: attention heads; head size hs = d / H
    ff_dim: int = 128  # F: width of the feed-forward hidden layer
    num_layers: int = 2  # L: transformer blocks
    norm: str = "layernorm"  # or "rmsnorm"
    activation: str = "gelu"  # GPT-2's tanh GELU, or "relu"
    placement: str = "pre"  # pre-LN (GPT-2: x + f(LN(x))) or post-LN (LN(x + f(x)))
    init: str = "gpt2"  # weight initialisation scheme, see engine.init
    dropout: float = 0.0  # dropout rate in [0, 1) during training
    dtype: str = "float64"  # float32 halves memory and is faster; tests use float64
    positions: str = "learned"  # GPT-2's learned table added to the tokens, or "rope": rotary, on queries and keys
    rope_base: float = 10000.0  # RoPE's base: pair i turns by base^(-2i/hs) radians per position
    ffn: str = "mlp"  # GPT-2's two-matrix MLP of width ff_dim, or "swiglu": three matrices, gated, width ff_dim
    kv_heads: int | None = None  # G: key/value heads shared by groups of query heads; None means num_heads (MHA)
    tokenizer: str = "char"  # one token per character, or "bpe:N": byte-level BPE with an N-token vocabulary

    def __post_init__(self):
        for field in dataclasses.fields(self):
            self._check_field(field.name, getattr(self, field.name))
        if self.emb_dim % self.num_heads:
            raise ConfigError(f"GPTConfig: emb_dim ({self.emb_dim}) must be divisible by num_heads "
                              f"({self.num_heads})")
        if self.num_heads % self.num_kv_heads:
            raise ConfigError(f"GPTConfig: kv_heads ({self.kv_heads}) must divide num_heads ({self.num_heads}): each "
                              f"key/value head serves an equal group of query heads")
        if self.positions == "rope" and self.head_size % 2:
            raise ConfigError(f"GPTConfig: positions=rope rotates channel pairs, so the head size emb_dim / num_heads "
                              f"must be even, got {self.head_size}")

    def _check_field(self, key, value):
        if key in CHOICES:
            if not isinstance(value, str) or value not in CHOICES[key]:
                raise ConfigError(f"GPTConfig: {key} must be one of {', '.join(CHOICES[key])}, got {value!r}")
        elif key in NUMBER_FIELDS:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"GPTConfig: {key} must be a number, got {type(value).__name__} {value!r}")
            if key == "dropout" and not 0.0 <= value < 1.0:
                raise ConfigError(f"GPTConfig: dropout must lie in [0, 1), got {value}")
            if key == "rope_base" and not value > 1.0:
                raise ConfigError(f"GPTConfig: rope_base must be > 1 (at 1 no pair would turn), got {value}")
            object.__setattr__(self, key, float(value))
        elif key == "tokenizer":
            tokenizer_vocab_size(value)  # raises naming the problem
        elif not (key in OPTIONAL_FIELDS and value is None):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"GPTConfig: {key} must be an integer, got {type(value).__name__} {value!r}")
            if value < 1:
                raise ConfigError(f"GPTConfig: {key} must be >= 1, got {value}")

    @property
    def head_size(self):
        """hs = d / H, the channels each attention head works with."""
        return self.emb_dim // self.num_heads

    @property
    def num_kv_heads(self):
        """G, the key/value heads: ``kv_heads``, or ``num_heads`` (ordinary multi-head attention) when unset."""
        return self.num_heads if self.kv_heads is None else self.kv_heads

    @property
    def kv_dim(self):
        """G * hs, the width of the keys (and of the values) one position stores."""
        return self.num_kv_heads * self.head_size

    @classmethod
    def from_dict(cls, values):
        """Build from a mapping, rejecting keys that are not fields (a typo must not be silently ignored)."""
        known = [field.name for field in dataclasses.fields(cls)]
        unknown = [key for key in values if key not in known]
        if unknown:
            raise ConfigError(f"GPTConfig: unknown key {unknown[0]!r}; known keys are {', '.join(known)}")
        return cls(**values)

    def with_overrides(self, **overrides):
        """A copy with some fields replaced, checked like a new config."""
        return GPTConfig.from_dict({**self.to_dict(), **overrides})

    def to_dict(self):
        return dataclasses.asdict(self)


# GPT-2 small's sizes (the 124M model of Radford et al. 2019, as in nanoGPT's "gpt2" config), so pages can put the
# engine's closed forms beside the tiny default. Too large to initialise here; use it for counts and stds only.
GPT2_SMALL = GPTConfig(vocab_size=50257, seq_len=1024, emb_dim=768, num_heads=12, ff_dim=3072, num_layers=12)
# A Llama-3-8B-like config (Meta 2024, "The Llama 3 Herd of Models", Table 3): 32 layers of width 4096, 32 query
# heads sharing 8 key/value heads, SwiGLU of width 14336, RoPE with base 500,000, RMSNorm, 128K tokens. The engine's
# attention and head keep their biases, which Llama has not; for counts and cache sizes only.
LLAMA3_8B = GPTConfig(vocab_size=128256, seq_len=8192, emb_dim=4096, num_heads=32, kv_heads=8, ff_dim=14336,
                      num_layers=32, norm="rmsnorm", positions="rope", rope_base=500000.0, ffn="swiglu")


def parse_overrides(pairs):
    """Turn command-line ``key=value`` strings into typed overrides; the value's type follows the field's."""
    defaults = GPTConfig().to_dict()
    overrides = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep:
            raise ConfigError(f"config override {pair!r} must look like key=value")
        if key not in defaults:
            raise ConfigError(f"GPTConfig: unknown key {key!r}; known keys are {', '.join(defaults)}")
        if key in CHOICES or key == "tokenizer":
            overrides[key] = text
            continue
        try:
            overrides[key] = float(text) if key in NUMBER_FIELDS else int(text)
        except ValueError:
            kind = "a number" if key in NUMBER_FIELDS else "an integer"
            raise ConfigError(f"GPTConfig: {key} must be {kind}, got {text!r}") from None
    return overrides
