"""The KV cache: generation that computes only the newest position, reusing every earlier position's keys and values.

In a causal model an earlier position never reads a later one, so its keys and values stay what they were when it
was first computed, as long as it keeps its position. ``prefill`` runs the ordinary forward once and keeps each
block's keys and values ``(B, G, P, hs)``, one per key/value head (G = H for multi-head attention, fewer with
grouped-query attention); ``decode_step`` then embeds one new id, attends from its single query over the kept keys
plus its own, and appends its key and value. With rotary positions a key is kept already rotated by its own
position, and the new query and key are rotated by the new id's true position. A window that slides past
``seq_len`` gives every kept id a new position and so a new learned position embedding: all keys change, and the
cache must be rebuilt (``engine.generate.generate`` does that with a fresh ``prefill``).
"""
import math

import numpy as np

from .attention import PARAM_NAMES as ATTENTION_PARAMS
from .attention import expand_kv, merge_heads, project_qkv
from .errors import LayerwiseError
from .linear import linear_forward
from .model import _norm_forward, embed_forward, feed_forward, forward, rope_for, sublayer_forward
from .softmax import softmax_forward


def keys_and_values(cache):
    """Every block's keys and values ``[(k, v)]``, each ``(B, G, T, hs)``, from a forward cache."""
    return [block["attn"]["f"]["attn"]["kv"] for block in cache["blocks"]]


def prefill(params, ids, config):
    """The ordinary forward over ids ``(B, T)``: the last position's logits ``(B, V)`` and the blocks' keys and values."""
    logits, cache = forward(params, ids, config)  # (B, T, V)
    return logits[:, -1], keys_and_values(cache)


def prefill_by_steps(params, ids, config):
    """What :func:`prefill` gives, made one position at a time from an empty cache with :func:`decode_step`: slower
    than one forward, but it never reads the forward's caches, which a model with swapped-in layers ("Build your
    GPT") keeps in another form."""
    ids = np.asarray(ids)  # (B, T)
    empty = np.zeros((ids.shape[0], config.num_kv_heads, 0, config.head_size))  # (B, G, 0, hs)
    past = [(empty, empty) for _ in range(config.num_layers)]
    for position in range(ids.shape[1]):
        logits, past = decode_step(params, ids[:, position], position, config, past)  # (B, V)
    return logits, past


def attention_step_forward(x, params, num_heads, past, kv_heads=None, rope=None):
    """Causal self-attention of one new position ``x (B, 1, d)`` over the ``past`` keys and values and its own.

    ``past`` is ``(k, v)``, each ``(B, G, P, hs)``; ``rope``, when given, is the rotary tables of the new position
    alone. Returns ``(y, (k, v))``: y ``(B, 1, d)`` and the keys and values grown to ``P + 1`` positions.
    """
    kv_heads = num_heads if kv_heads is None else kv_heads
    q, k, v, _ = project_qkv(x, params, num_heads, kv_heads, rope)  # (B, H, 1, hs), (B, G, 1, hs) twice
    past_k, past_v = past
    k = np.concatenate([past_k, k], axis=2)  # (B, G, P + 1, hs)
    v = np.concatenate([past_v, v], axis=2)  # (B, G, P + 1, hs)
    grown = (k, v)  # the cache keeps the G key/value heads
    k, v = expand_kv(k, num_heads), expand_kv(v, num_heads)  # (B, H, P + 1, hs): each serves its group
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = (q @ np.swapaxes(k, -1, -2)) * scale  # (B, H, 1, P + 1); no mask: every key is at or before the query
    weights, _ = softmax_forward(scores)  # (B, H, 1, P + 1)
    y, _ = linear_forward(merge_heads(weights @ v), params["wo"], params["bo"])  # (B, 1, d)
    return y, grown


def _attention_step_sublayer(past, position):
    """The attention step in the shape ``sublayer_forward`` expects, so norm placement is the model's own."""
    def branch(h, params, prefix, config):
        weights = {name: params[f"{prefix}.{name}"] for name in ATTENTION_PARAMS}
        rope = rope_for(config, np.array([position]), h.dtype)  # the new id's true position
        return attention_step_forward(h, weights, config.num_heads, past, config.kv_heads, rope)
    return branch, None  # no backward: generation does not train


def decode_step(params, ids, position, config, past):
    """Logits ``(B, V)`` for the ids ``(B,)`` at ``position``, given every block's keys and values of the positions
    before it; returns ``(logits, past)`` with ``past`` grown by this position."""
    if not 0 <= position < config.seq_len:
        raise LayerwiseError(f"decode_step: position must be in [0, {config.seq_len - 1}] (seq_len), got "
                             f"{position}; past seq_len the window slides and the cache must be rebuilt")
    if past[0][0].shape[2] != position:
        raise LayerwiseError(f"decode_step: the cache holds {past[0][0].shape[2]} positions but the new id is at "
                             f"position {position}; it must hold exactly the positions before it")
    ids = np.asarray(ids).reshape(-1, 1)  # (B, 1)
    x, _ = embed_forward(params, ids, config, slice(position, position + 1))  # (B, 1, d)
    grown = []
    for i, block_past in enumerate(past):  # the block's keys and values are its own: one entry per block
        x, attn_cache = sublayer_forward(x, _attention_step_sublayer(block_past, position), params, f"b{i}",
                                         f"b{i}.ln1", config, None)
        x, _ = sublayer_forward(x, feed_forward(config), params, f"b{i}", f"b{i}.ln2", config, None)
        grown.append(attn_cache["f"])
    if config.placement == "pre":
        x, _ = _norm_forward(x, params, "lnf", config)
    logits, _ = linear_forward(x, params["head_w"], params["head_b"])  # (B, 1, V)
    return logits[:, 0], grown


def cache_floats(config, context):
    """How many numbers the cache holds for one sequence of ``context`` tokens: a key and a value of ``G hs`` per
    position (``d`` for multi-head attention), in each of the L blocks."""
    return 2 * config.num_layers * context * config.kv_dim


def _per_position_multiply_adds(config):
    """Multiply-adds that do not depend on the context: in each block the q and output projections (2 d^2), the k
    and v projections (2 d G hs; 2 d^2 for multi-head), and the MLP (2 d F; 3 d F for SwiGLU), then the head (d V)."""
    d, F, V, L = config.emb_dim, config.ff_dim, config.vocab_size, config.num_layers
    feed_forward_matrices = 2 if config.ffn == "mlp" else 3
    return L * (2 * d * d + 2 * d * config.kv_dim + feed_forward_matrices * d * F) + d * V


def full_step_multiply_adds(config, context):
    """One uncached step at ``context`` positions: every position again, and the whole n x n score matrix and
    weighted sum (2 d per query-key pair, the masked half included: the engine computes it, then masks it)."""
    n, d, L = context, config.emb_dim, config.num_layers
    return n * _per_position_multiply_adds(config) + L * 2 * n * n * d


def cached_step_multiply_adds(config, context):
    """One cached step at ``context`` positions: the new position alone, its one row of scores against n keys."""
    n, d, L = context, config.emb_dim, config.num_layers
    return _per_position_multiply_adds(config) + L * 2 * n * d
