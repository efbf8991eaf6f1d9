"""Which engine function each exercise's function stands in for, and where the model's code looks that function up.

An exercise's function has the learner's signature: a forward returns only its output (no cache) and a backward
takes the forward's inputs after the upstream gradient (``layernorm_backward(dy, x, gamma, beta)``). A ``Layer``
pairs those with the engine's ``(out, cache)`` / ``(dout, cache)`` functions; ``engine.capstone.swap`` builds the
adapters and binds them where ``engine.model`` (and the modules it calls through) find them.
"""
from typing import Callable, NamedTuple

import numpy as np

from .. import (activations, attention, embedding, generate, init, kv_cache, linear, loss, model, norms, optim,
                train)
from ..config import GPTConfig
from ..errors import LayerwiseError
from ..exercises.block_forward import PARAMS as BLOCK_PARAMS, config_for as block_config


class Names(NamedTuple):
    """The pair is found as two module attributes (``engine.model.layernorm_forward`` / ``_backward``)."""
    module: object
    forward: str
    backward: str | None = None

    def values(self, forward, backward):
        pairs = [(self.forward, forward)] + ([(self.backward, backward)] if self.backward else [])
        return [(self.module, name, value) for name, value in pairs]

    def current(self):
        return (getattr(self.module, self.forward), getattr(self.module, self.backward) if self.backward else None)


class Pair(NamedTuple):
    """The pair is one module attribute holding the tuple ``(forward, backward)`` (``engine.model.MLP``)."""
    module: object
    name: str

    def values(self, forward, backward):
        return [(self.module, self.name, (forward, backward))]

    def current(self):
        return getattr(self.module, self.name)


class Entry(NamedTuple):
    """The pair is one entry of a module-level table (``engine.activations.ACTIVATIONS["gelu"]``)."""
    module: object
    name: str
    key: str

    def values(self, forward, backward):
        return [(self.module, self.name, {**getattr(self.module, self.name), self.key: (forward, backward)})]

    def current(self):
        return getattr(self.module, self.name)[self.key]


class Layer(NamedTuple):
    """One engine forward (and backward) that exercises can replace.

    ``forward``/``backward``: the engine's functions; ``exercise_forward``/``exercise_backward``: ids of the
    exercises whose function replaces them (None: no exercise writes it); ``homes``: where the model looks them up;
    ``arguments(*engine_args)``: the learner function's arguments from the engine call's (default: the same);
    ``upstream_first``: the learner's backward takes the upstream gradient first (cross-entropy's takes none: it
    is the gradient of the mean loss itself, scaled by the upstream ``dloss``); ``results(out, *engine_args)``: the
    engine's backward result from the learner's (default: the same), ``learner_results`` the other way round.
    ``names``: what the exercises call the pair when they give it to a learner's composition (``GIVEN``), and
    ``engine_arguments(context, *learner_args)`` the engine call's arguments from the learner's, for the views
    ``swap.views`` makes under those names."""
    name: str
    forward: Callable
    backward: Callable | None
    exercise_forward: str | None
    exercise_backward: str | None
    homes: tuple
    arguments: Callable = lambda *args: args
    upstream_first: bool = True
    results: Callable = lambda out, *engine_args: out
    learner_results: Callable = lambda out, *engine_args: out
    names: tuple = ()
    engine_arguments: Callable = lambda context, *args: args


MLP_PARAMS = ("ff1_w", "ff1_b", "ff2_w", "ff2_b")
HEAD_PARAMS = ("lnf_g", "lnf_b", "head_w", "head_b")


def _mlp_arguments(x, params, prefix, config):
    if config.activation != "gelu":
        raise LayerwiseError(f"mlp_forward: the exercise's version is GELU's; this model uses {config.activation}")
    return (x, *(params[f"{prefix}.{name}"] for name in MLP_PARAMS))


def _mlp_engine_arguments(context, x, *weights):
    config = GPTConfig(emb_dim=weights[0].shape[0], ff_dim=weights[0].shape[1], num_heads=1, activation="gelu")
    return x, {f"mlp.{name}": value for name, value in zip(MLP_PARAMS, weights)}, "mlp", config


def _mlp_learner_results(out, x, params, prefix, config):
    dx, grads = out
    return (dx, *(grads[f"{prefix}.{name}"] for name in MLP_PARAMS))


def _multi_head_only(function, num_heads, kv_heads, rope):
    """The attention exercises are written for GPT-2's attention: every head its own keys and values, no rotation."""
    if rope is not None or kv_heads not in (None, num_heads):
        raise LayerwiseError(f"{function}: the exercise's version is multi-head attention with learned positions; "
                             f"this model uses {'rotary positions' if rope is not None else f'{kv_heads} kv heads'}")


def _attention_arguments(x, params, num_heads, kv_heads=None, rope=None):
    _multi_head_only("attention_forward", num_heads, kv_heads, rope)
    return (x, *(params[name] for name in attention.PARAM_NAMES), num_heads)


def _attention_engine_arguments(context, x, *rest):
    *weights, num_heads = rest
    return x, dict(zip(attention.PARAM_NAMES, weights)), num_heads


def _attention_results(out, *engine_args):
    dx, *grads = out
    return dx, dict(zip(attention.PARAM_NAMES, grads, strict=True))


def _attention_learner_results(out, *engine_args):
    dx, grads = out
    return (dx, *(grads[name] for name in attention.PARAM_NAMES))


def _pre_ln_gelu(function, config):
    """The block and model exercises are written for this model's kind: pre-LN, LayerNorm, GELU, no dropout."""
    if (config.placement, config.norm, config.activation, config.dropout) != ("pre", "layernorm", "gelu", 0.0):
        raise LayerwiseError(f"{function}: the exercise's version is a pre-LN LayerNorm GELU model without dropout; "
                             f"this model is {config.placement}-LN {config.norm} {config.activation} with dropout "
                             f"{config.dropout}")


def _block_arguments(x, params, i, config, rng=None):
    _pre_ln_gelu("block_forward", config)
    return (x, *(params[f"b{i}.{name}"] for name in BLOCK_PARAMS), config.num_heads)


def _block_engine_arguments(context, x, *rest):
    *values, num_heads = rest
    i = context.block_of(values[BLOCK_PARAMS.index("wq")])
    config = block_config(x, values[BLOCK_PARAMS.index("wq")], values[BLOCK_PARAMS.index("ff1_w")], num_heads)
    return x, {f"b{i}.{name}": value for name, value in zip(BLOCK_PARAMS, values)}, i, config, None


# The gradients' order as the engine's block_backward returns them (the MLP's sublayer first, its norm last): the
# training step's gradient clipping sums the squares in the dict's order, so the order is part of bit for bit.
BLOCK_GRADIENT_ORDER = (*MLP_PARAMS, "ln2_g", "ln2_b", *attention.PARAM_NAMES, "ln1_g", "ln1_b")


def _block_results(out, x, params, i, config, rng=None):
    dx, *grads = out
    named = dict(zip(BLOCK_PARAMS, grads, strict=True))
    return dx, {f"b{i}.{name}": named[name] for name in BLOCK_GRADIENT_ORDER}


def _block_learner_results(out, x, params, i, config, rng=None):
    dx, grads = out
    return (dx, *(grads[f"b{i}.{name}"] for name in BLOCK_PARAMS))


def _model_arguments(params, ids, config, rng=None):
    """The whole model's parameters as model-backward takes them: the blocks' stacked over the blocks."""
    _pre_ln_gelu("model_backward", config)
    stacked = [np.stack([params[f"b{i}.{name}"] for i in range(config.num_layers)]) for name in BLOCK_PARAMS]
    return (ids, params["tok_emb"], params["pos_emb"], *stacked, *(params[name] for name in HEAD_PARAMS),
            config.num_heads)


def _model_results(out, params, ids, config, rng=None):
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


# In call order of one training step's forward; the backward runs them in reverse.
LAYERS = (
    Layer("the whole model", model.forward, model.backward, None, "model-backward",
          (Names(model, "forward", "backward"),), arguments=_model_arguments, results=_model_results),
    Layer("token and position embedding", embedding.token_position_forward, embedding.token_position_backward,
          "token-position", None, (Names(model, "token_position_forward", "token_position_backward"),)),
    Layer("embedding lookup", embedding.embedding_forward, embedding.embedding_backward,
          "embedding-forward", "embedding-backward", (Names(embedding, "embedding_forward", "embedding_backward"),)),
    Layer("pre-LN block", model.block_forward, model.block_backward, "block-forward", "block-backward",
          (Names(model, "block_forward", "block_backward"),), arguments=_block_arguments, results=_block_results,
          learner_results=_block_learner_results, names=("block_forward", "block_backward"),
          engine_arguments=_block_engine_arguments),
    Layer("LayerNorm", norms.layernorm_forward, norms.layernorm_backward, "layernorm-forward", "layernorm-backward",
          (Names(model, "layernorm_forward", "layernorm_backward"),),
          names=("layernorm_forward", "layernorm_backward")),
    Layer("multi-head attention", attention.attention_forward, attention.attention_backward, "attention-forward",
          "attention-backward", (Names(model, "attention_forward", "attention_backward"),),
          arguments=_attention_arguments, results=_attention_results, learner_results=_attention_learner_results,
          names=("attention_forward", "attention_backward"), engine_arguments=_attention_engine_arguments),
    Layer("linear", linear.linear_forward, linear.linear_backward, "linear-forward", "linear-backward",
          (Names(model, "linear_forward", "linear_backward"), Names(attention, "linear_forward", "linear_backward"))),
    Layer("scaled dot-product attention", attention.scaled_dot_product_forward,
          attention.scaled_dot_product_backward, "attention-head", "attention-head-backward",
          (Names(attention, "scaled_dot_product_forward", "scaled_dot_product_backward"),),
          names=("attention_head", "attention_head_backward")),
    Layer("softmax", attention.softmax_forward, attention.softmax_backward, "softmax-forward", "softmax-backward",
          (Names(attention, "softmax_forward", "softmax_backward"),)),
    Layer("feed-forward sublayer", model.mlp_forward, model.mlp_backward, "mlp-forward", None,
          (Pair(model, "MLP"),), arguments=_mlp_arguments, learner_results=_mlp_learner_results,
          names=("mlp_forward", "mlp_backward"), engine_arguments=_mlp_engine_arguments),
    Layer("GELU", activations.gelu_tanh_forward, activations.gelu_tanh_backward, "gelu-forward", "gelu-backward",
          (Entry(activations, "ACTIVATIONS", "gelu"),)),
    Layer("cross-entropy", loss.cross_entropy_forward, loss.cross_entropy_backward, "cross-entropy-forward",
          "cross-entropy-backward", (Names(model, "cross_entropy_forward", "cross_entropy_backward"),),
          upstream_first=False),
)


class Plain(NamedTuple):
    """A function without a backward that an exercise replaces: ``call(learner, engine, *engine_args)``."""
    name: str
    engine: Callable
    exercise: str
    home: Names
    call: Callable = lambda learner, engine, *args: learner(*args)


def _gpt2_only(learner, engine, scheme, shape, rng, num_layers, residual=False):
    return learner(shape, rng, num_layers, residual) if scheme == "gpt2" else engine(scheme, shape, rng, num_layers,
                                                                                      residual)


def _adamw_in_place(learner, engine, params, grads, state, lr, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1):
    """The learner's step returns the parameters and moments (new dicts, or the given ones updated); the loop keeps
    its own arrays, so the values are written back into them."""
    state["step"] += 1
    new_params, m, v = learner(params, grads, state["m"], state["v"], state["step"], lr, weight_decay, *betas, eps)
    for name, p in params.items():
        p[...] = new_params[name]
        state["m"][name][...] = m[name]
        state["v"][name][...] = v[name]


def _draw_only(learner, engine, logits, rng, temperature=1.0, top_k=None, top_p=None):
    """The learner's sampler returns its probabilities and the id; generation wants the id."""
    return int(learner(logits, rng, temperature, top_k, top_p)[1])


def _step_with_cache(learner, engine, x, params, num_heads, past, kv_heads=None, rope=None):
    """The learner's decode step returns ``(y, k, v)``; the engine's ``(y, (k, v))``."""
    _multi_head_only("attention_step_forward", num_heads, kv_heads, rope)
    y, k, v = learner(x, params, num_heads, *past)
    return y, (k, v)


PLAIN = (
    Plain("causal mask", attention.causal_mask, "causal-mask", Names(attention, "causal_mask")),
    Plain("GPT-2 initialisation", init.init_weight, "gpt2-init", Names(model, "init_weight"), call=_gpt2_only),
    Plain("learning-rate schedule", optim.learning_rate, "learning-rate", Names(train, "learning_rate")),
    Plain("AdamW step", optim.adamw_step, "adamw-step", Names(train, "adamw_step"), call=_adamw_in_place),
    Plain("sampling the next character", generate.sample_next, "sample-next", Names(generate, "sample_next"),
          call=_draw_only),
    Plain("attention of one new position over the KV cache", kv_cache.attention_step_forward, "kv-decode-step",
          Names(kv_cache, "attention_step_forward"), call=_step_with_cache),
)


def exercise_ids():
    """Every exercise whose function the model (or its training loop) calls, in call order."""
    ids = [layer.exercise_forward for layer in LAYERS] + [layer.exercise_backward for layer in LAYERS]
    return [i for i in ids if i] + [plain.exercise for plain in PLAIN]


# Exercises the page lists as not used by this model, with the reason.
NOT_CALLED = {
    "relu-backward": "the model uses GELU",
    "rmsnorm-forward": "the model uses LayerNorm", "rmsnorm-backward": "the model uses LayerNorm",
    "dropout-forward": "the model trains without dropout (p = 0)",
    "dropout-backward": "the model trains without dropout (p = 0)",
    "dropout-modes": "the model trains without dropout (p = 0)",
    "residual-backward": "its residual wraps one linear layer; the model's residual add is the engine's",
    "residual-lab": "a whole pre-LN sublayer with a plain linear branch, not one of the model's",
    "attention-mask-order": "the model masks inside its attention (yours if you wrote attention_head)",
    "clip-gradients": "it clips two arrays; the training loop clips all of the model's gradients at once",
    "gpt2-std": "the model draws its weights with gpt2_init",
    "param-count": "it counts parameters; training does not call it",
    "numerical-gradient": "a checking tool, not part of the model",
    "relative-error": "a checking tool, not part of the model",
    "bpe-merge": "the model reads characters, not byte-pair tokens",
    "tokenizer-forward": "the model reads characters, not byte-pair tokens",
    "rope-forward": "the page's model learns its positions (positions=\"rope\" is a switch of GPTConfig)",
    "swiglu-forward": "the page's model uses a GELU MLP (ffn=\"swiglu\" is a switch of GPTConfig)",
    "gqa-forward": "the page's model gives every head its own keys and values (kv_heads is a switch of GPTConfig)",
    "modern-block-forward": "the page's model is GPT-2's block; the modern one is a GPTConfig switch away",
}


def engine_in_place():
    """Names of the homes that do not hold the engine function this table expects (empty when all is well)."""
    wrong = []
    for layer in LAYERS:
        for home in layer.homes:
            found = home.current()
            found = found if isinstance(found, tuple) else (found,)
            if found[0] is not layer.forward or (layer.backward and found[1] is not layer.backward):
                wrong.append(f"{home.module.__name__}.{getattr(home, 'forward', None) or home.name}")
    for plain in PLAIN:
        home = plain.home
        if getattr(home.module, home.forward) is not plain.engine:
            wrong.append(f"{home.module.__name__}.{home.forward}")
    return wrong

