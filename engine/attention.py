"""Causal multi-head self-attention: every position mixes the values of itself and the positions before it.

The heads are an extra batch axis: ``split_heads`` reshapes ``(B, T, d)`` into ``(B, H, T, hs)`` so one batched
matrix product serves every head at once, and ``merge_heads`` undoes it before the output projection. Two modern
options leave the default (GPT-2's) computation untouched: fewer key/value heads than query heads (grouped-query
attention) and rotary positions applied to queries and keys (engine.rope).
"""
import math

import numpy as np

from .errors import LayerwiseError, ShapeError, as_float_array, check_count, check_ndim, check_shape
from .linear import linear_backward, linear_forward
from .rope import rope_backward, rope_forward
from .softmax import softmax_backward, softmax_forward

PARAM_NAMES = ("wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo")


def split_heads(x, num_heads):
    """``(B, T, d) -> (B, H, T, hs)`` with ``hs = d / H``: head h owns channels ``h*hs .. (h+1)*hs - 1``."""
    B, T, d = x.shape
    num_heads = check_count("split_heads", "num_heads", num_heads, 1)
    if d % num_heads:
        raise ShapeError(f"split_heads: {d} channels cannot be split into {num_heads} equal heads")
    return x.reshape(B, T, num_heads, d // num_heads).transpose(0, 2, 1, 3)


def merge_heads(x):
    """``(B, H, T, hs) -> (B, T, d)``: the heads' outputs side by side again."""
    B, H, T, hs = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * hs)


def causal_mask(T):
    """``(T, T)`` booleans, True where query position i may look at key position j, that is ``j <= i``."""
    T = check_count("causal_mask", "T", T, 1)
    return np.tril(np.ones((T, T), dtype=bool))


def scaled_dot_product_forward(q, k, v):
    """``softmax(mask(q k^T / sqrt(hs))) v`` for q, k, v ``(..., T, hs)``; returns ``(out, cache)``."""
    q, k, v = (as_float_array("scaled_dot_product_forward", n, a) for n, a in (("q", q), ("k", k), ("v", v)))
    check_ndim("scaled_dot_product_forward", "q", q, (2, 3, 4))
    check_shape("scaled_dot_product_forward", "k", k, q.shape)
    check_shape("scaled_dot_product_forward", "v", v, q.shape)
    T, hs = q.shape[-2:]
    scale = 1.0 / math.sqrt(hs)  # keeps the scores' spread independent of the head size
    scores = (q @ np.swapaxes(k, -1, -2)) * scale  # (..., T, T)
    scores = np.where(causal_mask(T), scores, -np.inf)  # the future gets probability exactly 0
    weights, softmax_cache = softmax_forward(scores)  # (..., T, T); each row sums to 1
    out = weights @ v  # (..., T, hs)
    return out, {"q": q, "k": k, "v": v, "scale": scale, "scores": scores, "weights": weights,
                 "softmax": softmax_cache}


def scaled_dot_product_backward(dout, cache):
    """Return ``(dq, dk, dv)``: the forward's three products undone in reverse order."""
    q, k, v, weights, scale = cache["q"], cache["k"], cache["v"], cache["weights"], cache["scale"]
    dout = as_float_array("scaled_dot_product_backward", "dout", dout)
    check_shape("scaled_dot_product_backward", "dout", dout, q.shape)
    dweights = dout @ np.swapaxes(v, -1, -2)  # (..., T, T)
    dv = np.swapaxes(weights, -1, -2) @ dout  # (..., T, hs)
    dscores = softmax_backward(dweights, cache["softmax"]) * scale  # (..., T, T); 0 where masked (p = 0)
    dq = dscores @ k  # (..., T, hs)
    dk = np.swapaxes(dscores, -1, -2) @ q  # (..., T, hs)
    return dq, dk, dv


def expand_kv(kv, num_heads):
    """``(B, G, T, hs) -> (B, H, T, hs)``: each of the G key/value heads serves ``H / G`` consecutive query heads
    (grouped-query attention; G = H is multi-head, G = 1 multi-query). Nothing is copied when G = H."""
    groups = kv.shape[1]
    return kv if groups == num_heads else np.repeat(kv, num_heads // groups, axis=1)


def reduce_kv(dkv, kv_heads):
    """The backward of :func:`expand_kv`: a shared key or value receives the sum of its query heads' gradients."""
    B, H, T, hs = dkv.shape
    return dkv if kv_heads == H else dkv.reshape(B, kv_heads, H // kv_heads, T, hs).sum(axis=2)


def project_qkv(x, params, num_heads, kv_heads, rope):
    """Queries ``(B, H, T, hs)``, keys and values ``(B, G, T, hs)`` of ``x (B, T, d)``, queries and keys rotated by
    ``rope`` tables when given; returns ``(q, k, v, (q_cache, k_cache, v_cache))``. Shared by the full forward and
    the cached step."""
    missing = [name for name in PARAM_NAMES if name not in params]
    if missing:
        raise LayerwiseError(f"attention_forward: params is missing {', '.join(missing)}; "
                             f"expected keys {' '.join(PARAM_NAMES)}")
    if kv_heads < 1 or num_heads % kv_heads:
        raise ShapeError(f"attention_forward: kv_heads ({kv_heads}) must divide num_heads ({num_heads})")
    q, q_cache = linear_forward(x, params["wq"], params["bq"])  # (B, T, d)
    k, k_cache = linear_forward(x, params["wk"], params["bk"])  # (B, T, G hs)
    v, v_cache = linear_forward(x, params["wv"], params["bv"])  # (B, T, G hs)
    q, k, v = split_heads(q, num_heads), split_heads(k, kv_heads), split_heads(v, kv_heads)
    if q.shape[-1] != k.shape[-1]:
        raise ShapeError(f"attention_forward: wk has {params['wk'].shape[1]} columns; with {kv_heads} key heads of "
                         f"size {q.shape[-1]} it must have {kv_heads * q.shape[-1]}")
    if rope is not None:
        q, k = rope_forward(q, rope), rope_forward(k, rope)
    return q, k, v, (q_cache, k_cache, v_cache)


def attention_forward(x, params, num_heads, kv_heads=None, rope=None):
    """Causal self-attention of ``x (B, T, d)`` with ``params`` holding wq bq wk bk wv bv wo bo.

    ``kv_heads`` (default ``num_heads``) key/value heads are shared by groups of query heads; ``rope``, the
    ``(cos, sin)`` tables of :func:`engine.rope.rope_tables` for positions 0..T-1, rotates queries and keys.
    Returns ``(y, cache)`` with y ``(B, T, d)``; ``cache["sdp"]["weights"]`` is the ``(B, H, T, T)`` attention map
    and ``cache["kv"]`` the keys and values ``(B, G, T, hs)`` a KV cache keeps.
    """
    x = as_float_array("attention_forward", "x", x)
    check_ndim("attention_forward", "x", x, 3)
    kv_heads = num_heads if kv_heads is None else kv_heads
    q, k, v, (q_cache, k_cache, v_cache) = project_qkv(x, params, num_heads, kv_heads, rope)
    heads, sdp_cache = scaled_dot_product_forward(q, expand_kv(k, num_heads), expand_kv(v, num_heads))  # (B, H, T, hs)
    y, o_cache = linear_forward(merge_heads(heads), params["wo"], params["bo"])  # (B, T, d)
    return y, {"q": q_cache, "k": k_cache, "v": v_cache, "sdp": sdp_cache, "o": o_cache, "num_heads": num_heads, "kv_heads": kv_heads,
               "rope": rope, "kv": (k, v)}


def attention_backward(dy, cache):
    """Return ``(dx, dparams)``; x fed q, k and v, so its three gradients add up."""
    num_heads, kv_heads = cache["num_heads"], cache["kv_heads"]
    dmerged, dwo, dbo = linear_backward(dy, cache["o"])  # (B, T, d)
    dq, dk, dv = scaled_dot_product_backward(split_heads(dmerged, num_heads), cache["sdp"])  # (B, H, T, hs)
    dk, dv = reduce_kv(dk, kv_heads), reduce_kv(dv, kv_heads)  # (B, G, T, hs)
    if cache["rope"] is not None:
        dq, dk = rope_backward(dq, cache["rope"]), rope_backward(dk, cache["rope"])
    dx, dwq, dbq = linear_backward(merge_heads(dq), cache["q"])  # (B, T, d)
    dx_k, dwk, dbk = linear_backward(merge_heads(dk), cache["k"])
    dx_v, dwv, dbv = linear_backward(merge_heads(dv), cache["v"])
    dx += dx_k
    dx += dx_v
    return dx, {"wq": dwq, "bq": dbq, "wk": dwk, "bk": dbk, "wv": dwv, "bv": dbv, "wo": dwo, "bo": dbo}
