"""Embedding lookup: a token id selects one row of a table; the position adds a learned row of its own.

The backward must *accumulate*: an id that appears twice receives the sum of both gradients. ``np.add.at`` does
that; ``dtable[ids] += dout`` would keep only the last write for a repeated id.
"""
import numpy as np

from .errors import ShapeError, as_float_array, check_finite, check_ndim, check_shape, check_token_ids


def embedding_forward(ids, table):
    """Look up ``table[ids]`` for ids of any shape ``(...)``; returns ``(out, cache)`` with out ``(..., d)``."""
    table = as_float_array("embedding_forward", "table", table)  # (V, d)
    check_ndim("embedding_forward", "table", table, 2)
    check_finite("embedding_forward", "table", table)
    ids = check_token_ids("embedding_forward", "ids", ids, table.shape[0])  # (...)
    out = table[ids]  # (..., d)
    return out, {"ids": ids, "table_shape": table.shape, "dtype": table.dtype}


def embedding_backward(dout, cache):
    """Gradient of the table: every occurrence of an id adds its ``dout`` row to that id's row."""
    ids = cache["ids"]  # (...)
    dout = as_float_array("embedding_backward", "dout", dout)
    check_shape("embedding_backward", "dout", dout, ids.shape + (cache["table_shape"][1],))
    dtable = np.zeros(cache["table_shape"], dtype=cache["dtype"])  # (V, d)
    np.add.at(dtable, ids, dout)  # repeated ids accumulate
    return dtable


def token_position_forward(ids, tok_emb, pos_emb):
    """Token plus learned position embedding: ``x[b, t] = tok_emb[ids[b, t]] + pos_emb[t]`` for ids ``(B, T)``."""
    ids = np.asarray(ids)
    check_ndim("token_position_forward", "ids", ids, 2)
    pos_emb = as_float_array("token_position_forward", "pos_emb", pos_emb)  # (T_max, d)
    check_ndim("token_position_forward", "pos_emb", pos_emb, 2)
    T = ids.shape[1]
    if T > pos_emb.shape[0]:
        max_len = pos_emb.shape[0]
        raise ShapeError(f"token_position_forward: ids has {T} positions but pos_emb has only {max_len} rows "
                         f"(seq_len); crop the sequence to at most {max_len} tokens")
    tok, tok_cache = embedding_forward(ids, tok_emb)  # (B, T, d)
    check_shape("token_position_forward", "pos_emb", pos_emb, (None, tok.shape[-1]))
    x = tok + pos_emb[:T]  # (B, T, d); positions broadcast over the batch
    return x, {"tok": tok_cache, "pos_emb_shape": pos_emb.shape, "T": T}


def token_position_backward(dx, cache):
    """Split ``dx (B, T, d)`` into the token table's gradient and the position table's gradient."""
    dtok_emb = embedding_backward(dx, cache["tok"])  # (V, d)
    dpos_emb = np.zeros(cache["pos_emb_shape"], dtype=dtok_emb.dtype)  # (T_max, d)
    dpos_emb[:cache["T"]] = dx.sum(axis=0)  # every sequence in the batch used the same position rows
    return dtok_emb, dpos_emb
