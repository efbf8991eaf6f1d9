"""What one trained token costs in arithmetic, from the configuration's sizes alone.

A weight used in a matrix product costs a multiply and an add per token on the way forward, and the backward
needs two such products per weight (one for the input's gradient, one for the weight's), so training costs about
3 x 2 = 6 operations per matrix entry per token. Attention adds work that grows with the context: each token's
query meets T keys and its weights mix T values. The pages use this to say where the compute goes.
"""
from .errors import LayerwiseError


def matrix_params(config):
    """Entries of every matrix a token passes through: per block four d x d and two d x F, then the d x V head."""
    if config.vocab_size is None:
        raise LayerwiseError("matrix_params: config.vocab_size is None; the head's size depends on it")
    d, F, L = config.emb_dim, config.ff_dim, config.num_layers
    return L * (4 * d * d + 2 * d * F) + d * config.vocab_size


def training_flops_per_token(config):
    """``{"weights": 6 N, "attention": 12 L T d}``: floating-point operations to train on one token at full context.

    N is :func:`matrix_params`; biases, norms and the table lookups are left out (a few per entry of a vector).
    The attention term counts the scores q k^T and the weighted sum of values, 2 T d each forward per block
    (the engine computes the full T x T matrix, masked entries included), times 3 for forward and backward: the
    count of PaLM's appendix B (Kaplan et al.'s Table 1 counts the scores only, half of it).
    """
    T, d, L = config.seq_len, config.emb_dim, config.num_layers
    return {"weights": 6 * matrix_params(config), "attention": 12 * L * T * d}
