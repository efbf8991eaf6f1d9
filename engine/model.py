"""The tiny GPT: parameters as a flat name -> array dict, a forward to logits, and its backward written by hand.

Each block is two residual sublayers (attention, then the feed-forward MLP). Pre-LN (GPT-2) computes
``x + f(LN(x))`` and ends the stack with a final norm ``lnf``; post-LN computes ``LN(x + f(x))``. The backward
calls the same layers' backwards in exactly the reverse order of the forward.
"""
import numpy as np

from . import activations
from .attention import PARAM_NAMES as ATTENTION_PARAMS
from .attention import attention_backward, attention_forward
from .dropout import dropout_backward, dropout_forward, dropout_mask
from .embedding import embedding_backward, embedding_forward, token_position_backward, token_position_forward
from .errors import ConfigError, LayerwiseError
from .init import init_weight
from .linear import linear_backward, linear_forward
from .loss import cross_entropy_backward, cross_entropy_forward
from .norms import layernorm_backward, layernorm_forward, rmsnorm_backward, rmsnorm_forward
from .residual import residual_backward, residual_forward
from .rope import rope_tables
from .swiglu import swiglu_backward, swiglu_forward

RESIDUAL_WRITERS = ("wo", "ff2_w", "ff_down_w")  # projections whose output is added to the residual stream
SWIGLU_PARAMS = ("ff_gate_w", "ff_up_w", "ff_down_w")


def _norm_shapes(prefix, config):
    d = config.emb_dim
    shapes = {f"{prefix}_g": (d,)}
    if config.norm == "layernorm":
        shapes[f"{prefix}_b"] = (d,)  # RMSNorm has no bias
    return shapes


def param_shapes(config):
    """Every parameter's name and shape, in a fixed order."""
    if config.vocab_size is None:
        raise ConfigError("GPTConfig: vocab_size is None; build the vocabulary from a corpus and set it first")
    V, T, d, F, kv = config.vocab_size, config.seq_len, config.emb_dim, config.ff_dim, config.kv_dim
    shapes = {"tok_emb": (V, d)}
    if config.positions == "learned":
        shapes["pos_emb"] = (T, d)  # rotary positions have no parameters
    attention = {"wq": (d, d), "bq": (d,), "wk": (d, kv), "bk": (kv,), "wv": (d, kv), "bv": (kv,),
                 "wo": (d, d), "bo": (d,)}
    if config.ffn == "mlp":
        feed_forward = {"ff1_w": (d, F), "ff1_b": (F,), "ff2_w": (F, d), "ff2_b": (d,)}
    else:
        feed_forward = {"ff_gate_w": (d, F), "ff_up_w": (d, F), "ff_down_w": (F, d)}
    for i in range(config.num_layers):
        shapes.update(_norm_shapes(f"b{i}.ln1", config))
        shapes.update({f"b{i}.{name}": attention[name] for name in ATTENTION_PARAMS})
        shapes.update(_norm_shapes(f"b{i}.ln2", config))
        shapes.update({f"b{i}.{name}": shape for name, shape in feed_forward.items()})
    if config.placement == "pre":
        shapes.update(_norm_shapes("lnf", config))  # post-LN blocks already end in a norm
    shapes.update({"head_w": (d, V), "head_b": (V,)})
    return shapes


def param_count_by_part(config):
    """Closed form, part by part: the two tables (no position table with RoPE), L blocks' attention (q and output
    2 d^2 + 2 d, keys and values 2 d kv + 2 kv with kv = G hs; 4 d^2 + 4 d for multi-head) and feed-forward (MLP
    2 d F + F + d, SwiGLU 3 d F), every norm (two per block, plus the final one in pre-LN), and the head (its own
    d x V matrix and bias, not tied)."""
    V, T, d, F, L = config.vocab_size, config.seq_len, config.emb_dim, config.ff_dim, config.num_layers
    kv = config.kv_dim
    norm = 2 * d if config.norm == "layernorm" else d
    final_norm = norm if config.placement == "pre" else 0
    feed_forward = 2 * d * F + F + d if config.ffn == "mlp" else 3 * d * F
    return {"token_embedding": V * d, "position_embedding": T * d if config.positions == "learned" else 0,
            "attention": L * (2 * d * d + 2 * d + 2 * d * kv + 2 * kv), "feed_forward": L * feed_forward,
            "norms": 2 * L * norm + final_norm, "head": d * V + V}


def param_count(config):
    """Closed form of the whole model: the sum of ``param_count_by_part``."""
    return sum(param_count_by_part(config).values())


def count_params(params):
    """Number of scalars in a parameter dict."""
    return sum(int(array.size) for array in params.values())


def init_params(config, seed=0):
    """Fresh parameters: norm gains 1, biases 0, matrices by ``config.init`` (see engine.init)."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in param_shapes(config).items():
        if np.prod(shape, dtype=object) > np.iinfo(np.intp).max // 8:  # NumPy: "maximum dimension exceeded" only
            raise MemoryError(f"parameter {name} of shape {shape} holds more numbers than this platform can address")
        short = name.rpartition(".")[2]
        if len(shape) == 1:  # norm gains 1, biases 0
            params[name] = np.ones(shape) if short.endswith("_g") else np.zeros(shape)
        else:
            params[name] = init_weight(config.init, shape, rng, config.num_layers, residual=short in RESIDUAL_WRITERS)
    return {name: array.astype(config.dtype) for name, array in params.items()}


def check_params(params, config, where="model"):
    """Require exactly the parameters ``config`` implies, each with its shape."""
    shapes = param_shapes(config)
    missing = [name for name in shapes if name not in params]
    extra = [name for name in params if name not in shapes]
    if missing or extra:
        raise LayerwiseError(f"{where}: parameters do not match the config: missing {missing or 'none'}, "
                             f"unexpected {extra or 'none'}")
    for name, shape in shapes.items():
        if np.shape(params[name]) != shape:
            raise LayerwiseError(f"{where}: parameter {name} has shape {np.shape(params[name])}; expected {shape}")


def _norm_forward(x, params, prefix, config):
    if config.norm == "layernorm":
        return layernorm_forward(x, params[f"{prefix}_g"], params[f"{prefix}_b"])
    return rmsnorm_forward(x, params[f"{prefix}_g"])


def _norm_backward(dy, cache, prefix, config):
    if config.norm == "layernorm":
        dx, dgamma, dbeta = layernorm_backward(dy, cache)
        return dx, {f"{prefix}_g": dgamma, f"{prefix}_b": dbeta}
    dx, dgamma = rmsnorm_backward(dy, cache)
    return dx, {f"{prefix}_g": dgamma}


def _dropout(x, config, rng):
    """Training (an rng given) with a positive rate draws a fresh mask; otherwise the identity."""
    training = rng is not None and config.dropout > 0
    return dropout_forward(x, config.dropout, dropout_mask(x.shape, config.dropout, rng) if training else None)


def mlp_forward(x, params, prefix, config):
    """The feed-forward sublayer ``ff2(act(ff1(x)))`` for x ``(B, T, d)``; the hidden layer is ``(B, T, F)``."""
    act_forward, _ = activations.ACTIVATIONS[config.activation]
    ff1, ff1_cache = linear_forward(x, params[f"{prefix}.ff1_w"], params[f"{prefix}.ff1_b"])  # (B, T, F)
    act, act_cache = act_forward(ff1)  # (B, T, F)
    ff2, ff2_cache = linear_forward(act, params[f"{prefix}.ff2_w"], params[f"{prefix}.ff2_b"])  # (B, T, d)
    return ff2, {"ff1": ff1_cache, "act": act_cache, "ff2": ff2_cache, "prefix": prefix, "config": config}


def mlp_backward(dy, cache):
    """Return ``(dx, grads)`` for the feed-forward sublayer."""
    prefix = cache["prefix"]
    _, act_backward = activations.ACTIVATIONS[cache["config"].activation]
    dact, dff2_w, dff2_b = linear_backward(dy, cache["ff2"])  # (B, T, F)
    dff1 = act_backward(dact, cache["act"])  # (B, T, F)
    dx, dff1_w, dff1_b = linear_backward(dff1, cache["ff1"])  # (B, T, d)
    return dx, {f"{prefix}.ff1_w": dff1_w, f"{prefix}.ff1_b": dff1_b,
                f"{prefix}.ff2_w": dff2_w, f"{prefix}.ff2_b": dff2_b}


def swiglu_sublayer_forward(x, params, prefix, config):
    """The gated feed-forward sublayer of engine.swiglu with block ``prefix``'s three matrices."""
    y, cache = swiglu_forward(x, *(params[f"{prefix}.{name}"] for name in SWIGLU_PARAMS))  # (B, T, d)
    return y, {"swiglu": cache, "prefix": prefix}


def swiglu_sublayer_backward(dy, cache):
    """Return ``(dx, grads)`` for the gated feed-forward sublayer."""
    dx, *dweights = swiglu_backward(dy, cache["swiglu"])
    return dx, {f"{cache['prefix']}.{name}": grad for name, grad in zip(SWIGLU_PARAMS, dweights)}


def rope_for(config, positions, dtype):
    """The rotary tables for ``positions`` when the config uses RoPE, else None (learned positions are added to x)."""
    if config.positions != "rope":
        return None
    return rope_tables(positions, config.head_size, config.rope_base, dtype)


def attention_sublayer_forward(x, params, prefix, config):
    """Causal self-attention with block ``prefix``'s weights; see engine.attention."""
    weights = {name: params[f"{prefix}.{name}"] for name in ATTENTION_PARAMS}
    rope = rope_for(config, np.arange(x.shape[1]), x.dtype)  # positions 0..T-1
    y, cache = attention_forward(x, weights, config.num_heads, config.kv_heads, rope)  # (B, T, d)
    return y, {"attn": cache, "prefix": prefix}


def attention_sublayer_backward(dy, cache):
    """Return ``(dx, grads)`` with the gradients named after block ``prefix``'s parameters."""
    dx, grads = attention_backward(dy, cache["attn"])
    return dx, {f"{cache['prefix']}.{name}": grad for name, grad in grads.items()}


def sublayer_forward(x, sublayer, params, prefix, norm_prefix, config, rng):
    """One residual sublayer: pre-LN ``x + drop(f(LN(x)))`` or post-LN ``LN(x + drop(f(x)))``."""
    branch_forward, _ = sublayer
    h, norm_cache = _norm_forward(x, params, norm_prefix, config) if config.placement == "pre" else (x, None)
    f, f_cache = branch_forward(h, params, prefix, config)  # (B, T, d)
    f, drop_cache = _dropout(f, config, rng)
    y, res_cache = residual_forward(x, f)  # (B, T, d)
    if config.placement == "post":
        y, norm_cache = _norm_forward(y, params, norm_prefix, config)
    return y, {"norm": norm_cache, "f": f_cache, "drop": drop_cache, "res": res_cache, "sublayer": sublayer,
               "norm_prefix": norm_prefix, "config": config}


def sublayer_backward(dy, cache):
    """The sublayer forward in reverse; the skip path's gradient and the branch's gradient add up in ``dx``."""
    config, norm_prefix = cache["config"], cache["norm_prefix"]
    _, branch_backward = cache["sublayer"]
    grads = {}
    if config.placement == "post":
        dy, grads = _norm_backward(dy, cache["norm"], norm_prefix, config)
    dx, df = residual_backward(dy, cache["res"])  # (B, T, d) each
    df = dropout_backward(df, cache["drop"])
    dh, f_grads = branch_backward(df, cache["f"])
    grads.update(f_grads)
    if config.placement == "pre":
        dh, norm_grads = _norm_backward(dh, cache["norm"], norm_prefix, config)
        grads.update(norm_grads)
    return dx + dh, grads


ATTENTION = (attention_sublayer_forward, attention_sublayer_backward)
MLP = (mlp_forward, mlp_backward)
SWIGLU = (swiglu_sublayer_forward, swiglu_sublayer_backward)


def feed_forward(config):
    """The feed-forward sublayer's (forward, backward) pair the config names."""
    return MLP if config.ffn == "mlp" else SWIGLU


def block_forward(x, params, i, config, rng=None):
    """Transformer block ``i``: the attention sublayer, then the feed-forward sublayer, on x ``(B, T, d)``."""
    x, attn_cache = sublayer_forward(x, ATTENTION, params, f"b{i}", f"b{i}.ln1", config, rng)
    x, mlp_cache = sublayer_forward(x, feed_forward(config), params, f"b{i}", f"b{i}.ln2", config, rng)
    return x, {"attn": attn_cache, "mlp": mlp_cache}


def block_backward(dx, cache):
    """Block backward: the feed-forward sublayer first, then attention. Returns ``(dx, grads)``."""
    dx, grads = sublayer_backward(dx, cache["mlp"])
    dx, attn_grads = sublayer_backward(dx, cache["attn"])
    return dx, {**grads, **attn_grads}


def embed_forward(params, ids, config, positions=None):
    """Token rows, plus the learned position rows (``positions``, default 0..T-1) unless positions are rotary."""
    if config.positions == "rope":
        return embedding_forward(np.asarray(ids), params["tok_emb"])  # positions enter inside attention
    pos_emb = params["pos_emb"] if positions is None else params["pos_emb"][positions]
    return token_position_forward(ids, params["tok_emb"], pos_emb)


def forward(params, ids, config, rng=None):
    """Logits ``(B, T, V)`` for ids ``(B, T)``. Passing ``rng`` means training: dropout masks are drawn from it."""
    check_params(params, config, "forward")
    x, emb_cache = embed_forward(params, ids, config)  # (B, T, d)
    x, drop_cache = _dropout(x, config, rng)
    block_caches = []
    for i in range(config.num_layers):  # blocks are sequential: each reads the previous one's output
        x, block_cache = block_forward(x, params, i, config, rng)
        block_caches.append(block_cache)
    lnf_cache = None
    if config.placement == "pre":
        x, lnf_cache = _norm_forward(x, params, "lnf", config)  # the residual stream grew; rescale it
    logits, head_cache = linear_forward(x, params["head_w"], params["head_b"])  # (B, T, V)
    return logits, {"emb": emb_cache, "drop": drop_cache, "blocks": block_caches, "lnf": lnf_cache,
                    "head": head_cache, "config": config}


def backward(dlogits, cache):
    """Gradients of every parameter, by running the forward's calls backwards, last first."""
    config = cache["config"]
    dx, dhead_w, dhead_b = linear_backward(dlogits, cache["head"])  # (B, T, d)
    grads = {"head_w": dhead_w, "head_b": dhead_b}
    if config.placement == "pre":
        dx, lnf_grads = _norm_backward(dx, cache["lnf"], "lnf", config)
        grads.update(lnf_grads)
    for block_cache in reversed(cache["blocks"]):
        dx, block_grads = block_backward(dx, block_cache)
        grads.update(block_grads)
    dx = dropout_backward(dx, cache["drop"])
    if config.positions == "learned":
        grads["tok_emb"], grads["pos_emb"] = token_position_backward(dx, cache["emb"])
    else:
        grads["tok_emb"] = embedding_backward(dx, cache["emb"])
    return grads


def attention_weights(cache):
    """The ``(B, H, T, T)`` attention map of every block, from a forward cache."""
    return [block["attn"]["f"]["attn"]["sdp"]["weights"] for block in cache["blocks"]]


def loss_and_grads(params, ids, targets, config, rng=None):
    """Mean cross-entropy of next-token prediction and the gradient of every parameter."""
    logits, cache = forward(params, ids, config, rng)
    loss, ce_cache = cross_entropy_forward(logits, targets)
    return loss, backward(cross_entropy_backward(1.0, ce_cache), cache)


def evaluate_loss(params, ids, targets, config):
    """The loss without dropout and without gradients."""
    return cross_entropy_forward(forward(params, ids, config)[0], targets)[0]
