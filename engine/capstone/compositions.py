"""The composition exercises' arguments and results (a whole model, a block, multi-head attention, the MLP): the
engine's ``(x, params, ...)`` calls and gradient dicts turned into the learner's positional arrays and back.

Each of these exercises is written for GPT-2's model (pre-LN, LayerNorm, GELU, multi-head attention with learned
positions); a call under another configuration raises naming what differs (the page does not swap them in there:
``Layer.needs``).
"""
import numpy as np

from .. import attention
from ..config import GPTConfig
from ..errors import LayerwiseError
from ..exercises.block_forward import PARAMS as BLOCK_PARAMS, config_for as block_config


MLP_PARAMS = ("ff1_w", "ff1_b", "ff2_w", "ff2_b")
HEAD_PARAMS = ("lnf_g", "lnf_b", "head_w", "head_b")


def mlp_arguments(x, params, prefix, config):
    if config.activation != "gelu":
        raise LayerwiseError(f"mlp_forward: the exercise's version is GELU's; this model uses {config.activation}")
    return (x, *(params[f"{prefix}.{name}"] for name in MLP_PARAMS))


def mlp_engine_arguments(context, x, *weights):
    config = GPTConfig(emb_dim=weights[0].shape[0], ff_dim=weights[0].shape[1], num_heads=1, activation="gelu")
    return x, {f"mlp.{name}": value for name, value in zip(MLP_PARAMS, weights)}, "mlp", config


def mlp_learner_results(out, x, params, prefix, config):
    dx, grads = out
    return (dx, *(grads[f"{prefix}.{name}"] for name in MLP_PARAMS))


def multi_head_only(function, num_heads, kv_heads, rope):
    """The attention exercises are written for GPT-2's attention: every head its own keys and values, no rotation."""
    if rope is not None or kv_heads not in (None, num_heads):
        raise LayerwiseError(f"{function}: the exercise's version is multi-head attention with learned positions; "
                             f"this model uses {'rotary positions' if rope is not None else f'{kv_heads} kv heads'}")


def attention_arguments(x, params, num_heads, kv_heads=None, rope=None):
    multi_head_only("attention_forward", num_heads, kv_heads, rope)
    return (x, *(params[name] for name in attention.PARAM_NAMES), num_heads)


def attention_engine_arguments(context, x, *rest):
    *weights, num_heads = rest
    return x, dict(zip(attention.PARAM_NAMES, weights)), num_heads


def attention_results(out, *engine_args):
    dx, *grads = out
    return dx, dict(zip(attention.PARAM_NAMES, grads, strict=True))


def attention_learner_results(out, *engine_args):
    dx, grads = out
    return (dx, *(grads[name] for name in attention.PARAM_NAMES))


def pre_ln_gelu(function, config):
    """The block and model exercises are written for this model's kind: pre-LN, LayerNorm, GELU, no dropout."""
    if (config.placement, config.norm, config.activation, config.dropout) != ("pre", "layernorm", "gelu", 0.0):
        raise LayerwiseError(f"{function}: the exercise's version is a pre-LN LayerNorm GELU model without dropout; "
                             f"this model is {config.placement}-LN {config.norm} {config.activation} with dropout "
                             f"{config.dropout}")


def block_arguments(x, params, i, config, rng=None):
    pre_ln_gelu("block_forward", config)
    return (x, *(params[f"b{i}.{name}"] for name in BLOCK_PARAMS), config.num_heads)


def block_engine_arguments(context, x, *rest):
    *values, num_heads = rest
    i = context.block_of(values[BLOCK_PARAMS.index("wq")])
    config = block_config(x, values[BLOCK_PARAMS.index("wq")], values[BLOCK_PARAMS.index("ff1_w")], num_heads)
    return x, {f"b{i}.{name}": value for name, value in zip(BLOCK_PARAMS, values)}, i, config, None


# The gradients' order as the engine's block_backward returns them (the MLP's sublayer first, its norm last): the
# training step's gradient clipping sums the squares in the dict's order, so the order is part of bit for bit.
BLOCK_GRADIENT_ORDER = (*MLP_PARAMS, "ln2_g", "ln2_b", *attention.PARAM_NAMES, "ln1_g", "ln1_b")


def block_results(out, x, params, i, config, rng=None):
    dx, *grads = out
    named = dict(zip(BLOCK_PARAMS, grads, strict=True))
    return dx, {f"b{i}.{name}": named[name] for name in BLOCK_GRADIENT_ORDER}


def block_learner_results(out, x, params, i, config, rng=None):
    dx, grads = out
    return (dx, *(grads[f"b{i}.{name}"] for name in BLOCK_PARAMS))


def model_arguments(params, ids, config, rng=None):
    """The whole model's parameters as model-backward takes them: the blocks' stacked over the blocks."""
    pre_ln_gelu("model_backward", config)
    stacked = [np.stack([params[f"b{i}.{name}"] for i in range(config.num_layers)]) for name in BLOCK_PARAMS]
    return (ids, params["tok_emb"], params["pos_emb"], *stacked, *(params[name] for name in HEAD_PARAMS),
            config.num_heads)


def model_results(out, params, ids, config, rng=None):
    tables, stacked, head = out[:2], out[2:2 + len(BLOCK_PARAMS)], out[2 + len(BLOCK_PARAMS):]
    if len(head) != len(HEAD_PARAMS):
        raise LayerwiseError(f"model_backward returned {len(out)} values; the model has "
                             f"{2 + len(BLOCK_PARAMS) + len(HEAD_PARAMS)} kinds of parameters")
    blocks = dict(zip(BLOCK_PARAMS, stacked, strict=True))
    grads = {name: head[HEAD_PARAMS.index(name)] for name in ("head_w", "head_b", "lnf_g", "lnf_b")}
    for i in reversed(range(config.num_layers)):  # in the order of engine.model.backward's dict (see above)
        grads.update({f"b{i}.{name}": blocks[name][i] for name in BLOCK_GRADIENT_ORDER})
    grads.update(zip(("tok_emb", "pos_emb"), tables))
    return grads
