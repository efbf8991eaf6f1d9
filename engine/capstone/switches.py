"""Which of the model's functions a configuration calls: GPTConfig's switches as features ("norm=rmsnorm"), what each
swappable function needs of them (``Layer.needs``, ``Plain.needs``), and the sentence saying why one is not called.

A function the configuration never calls is neither swapped in nor counted on the page: a learner who passed
LayerNorm keeps it for GPT-2's model and sees it listed as not called by RMSNorm's.
"""

# The features of GPT-2's model that exercises written for it (a whole block, multi-head attention) rely on
GPT2 = frozenset({"norm=layernorm", "positions=learned", "ffn=mlp", "kv=all"})
LEARNED_MULTI_HEAD = frozenset({"positions=learned", "kv=all"})
# What the model uses, in the words of "the model uses ..."
WORDS = {
    "norm=layernorm": "LayerNorm", "norm=rmsnorm": "RMSNorm",
    "positions=learned": "learned positions", "positions=rope": "rotary positions (RoPE)",
    "ffn=mlp": "a GELU MLP", "ffn=swiglu": "a SwiGLU feed-forward",
    "kv=all": "multi-head attention (every head its own keys and values)",
    "kv=shared": "fewer key/value heads than query heads (kv_heads)",
}


def features(config):
    """The switches of ``config`` as a set of ``"switch=value"`` strings (``kv`` is ``all`` or ``shared``)."""
    return {f"norm={config.norm}", f"positions={config.positions}", f"ffn={config.ffn}",
            "kv=all" if config.num_kv_heads == config.num_heads else "kv=shared"}


def calls(needs, config):
    """Whether a function that needs ``needs`` runs in the model ``config`` describes."""
    return needs <= features(config)


def why_not(needs, config):
    """"the model uses RMSNorm": the sentence naming the first switch of ``config`` that ``needs`` does not have."""
    have = features(config)
    missing = sorted(needs - have)[0]
    switch = missing.partition("=")[0]
    return f"the model uses {WORDS[next(f for f in sorted(have) if f.startswith(switch + '='))]}"
