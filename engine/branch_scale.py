"""How large a block's sub-layer outputs are when the model is fresh, measured over many draws of ``init_params``.

The Initialisation page compares GPT-2's fixed 0.02 with a variance-preserving start at this engine's width. Each
sub-layer has two weight matrices in series, so their shrinking factors multiply; measuring with the model's own
``init_params`` and ``mlp_forward`` keeps that comparison tied to the code that builds the model.
"""
from functools import lru_cache

import numpy as np

from . import model
from .errors import LayerwiseError
from .norms import layernorm_forward

BRANCHES = ("feed_forward", "attention_values")


@lru_cache(maxsize=16)  # the Initialisation page asks for each measurement several times
def branch_output_std(config, branch, num_draws=20, num_tokens=256, seed=0):
    """The standard deviation of block 0's ``branch`` output for normalised inputs, pooled over ``num_draws`` inits.

    ``feed_forward`` is ``mlp_forward``; ``attention_values`` is the value projection followed by the output
    projection (x wv wo), the path a token's own value takes to the stream. Attention's averaging over positions
    shrinks every scheme by the same factor, so it is left out. The inputs are LayerNorm outputs (mean 0, variance
    1 per token), which is what a pre-LN sub-layer reads.
    """
    if branch not in BRANCHES:
        raise LayerwiseError(f"branch_output_std: branch must be one of {', '.join(BRANCHES)}, got {branch!r}")
    config = config.with_overrides(vocab_size=config.vocab_size or 1)  # no token table is used here
    d = config.emb_dim
    rng = np.random.default_rng(seed)
    outputs = []
    for draw in range(num_draws):
        params = model.init_params(config, seed=seed + draw)
        x, _ = layernorm_forward(rng.standard_normal((1, num_tokens, d)), np.ones(d), np.zeros(d))  # (1, T, d)
        if branch == "feed_forward":
            y, _ = model.mlp_forward(x, params, "b0", config)  # (1, T, d)
        else:
            y = x @ params["b0.wv"] @ params["b0.wo"]  # (1, T, d); both biases start at 0
        outputs.append(y)
    return float(np.concatenate(outputs).std())
