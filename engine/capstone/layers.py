"""Which engine function each exercise's function stands in for, and where the model's code looks that function up.

An exercise's function has the learner's signature: a forward returns only its output (no cache) and a backward
takes the forward's inputs after the upstream gradient (``layernorm_backward(dy, x, gamma, beta)``). A ``Layer``
pairs those with the engine's ``(out, cache)`` / ``(dout, cache)`` functions; ``engine.capstone.swap`` builds the
adapters and binds them where ``engine.model`` (and the modules it calls through) find them.
"""
from typing import Callable, NamedTuple

from .. import (activations, attention, embedding, generate, init, kv_cache, linear, loss, model, norms, optim, rope,
                swiglu, train)
from .compositions import (attention_arguments, attention_engine_arguments, attention_learner_results,
                           attention_results, block_arguments, block_engine_arguments, block_learner_results,
                           block_results, mlp_arguments, mlp_engine_arguments, mlp_learner_results, model_arguments,
                           model_results, multi_head_only)
from .homes import Entry, Names, Pair
from .rotary import rotate, rotate_back
from .switches import GPT2, LEARNED_MULTI_HEAD, calls, why_not


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
    ``swap.views`` makes under those names. ``needs``: the features of the configuration (``switches``) under
    which the exercises' functions run in the model (none: always); ``engine_needs`` those under which the model
    calls the engine's pair (None: the same), fewer for a composition written for GPT-2's model: the engine's block
    runs in every configuration, the exercise's only in GPT-2's."""
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
    needs: frozenset = frozenset()
    engine_needs: frozenset | None = None


# In call order of one training step's forward; the backward runs them in reverse.
LAYERS = (
    Layer("the whole model", model.forward, model.backward, None, "model-backward",
          (Names(model, "forward", "backward"),), arguments=model_arguments, results=model_results, needs=GPT2,
          engine_needs=frozenset()),
    Layer("token and position embedding", embedding.token_position_forward, embedding.token_position_backward,
          "token-position", None, (Names(model, "token_position_forward", "token_position_backward"),),
          needs=frozenset({"positions=learned"})),
    Layer("embedding lookup", embedding.embedding_forward, embedding.embedding_backward,
          "embedding-forward", "embedding-backward", (Names(embedding, "embedding_forward", "embedding_backward"),
                                                      Names(model, "embedding_forward", "embedding_backward"))),
    Layer("pre-LN block", model.block_forward, model.block_backward, "block-forward", "block-backward",
          (Names(model, "block_forward", "block_backward"),), arguments=block_arguments, results=block_results,
          learner_results=block_learner_results, names=("block_forward", "block_backward"),
          engine_arguments=block_engine_arguments, needs=GPT2, engine_needs=frozenset()),
    Layer("LayerNorm", norms.layernorm_forward, norms.layernorm_backward, "layernorm-forward", "layernorm-backward",
          (Names(model, "layernorm_forward", "layernorm_backward"),),
          names=("layernorm_forward", "layernorm_backward"), needs=frozenset({"norm=layernorm"})),
    Layer("RMSNorm", norms.rmsnorm_forward, norms.rmsnorm_backward, "rmsnorm-forward", "rmsnorm-backward",
          (Names(model, "rmsnorm_forward", "rmsnorm_backward"),), needs=frozenset({"norm=rmsnorm"})),
    Layer("multi-head attention", attention.attention_forward, attention.attention_backward, "attention-forward",
          "attention-backward", (Names(model, "attention_forward", "attention_backward"),),
          arguments=attention_arguments, results=attention_results, learner_results=attention_learner_results,
          names=("attention_forward", "attention_backward"), engine_arguments=attention_engine_arguments,
          needs=LEARNED_MULTI_HEAD, engine_needs=frozenset()),
    Layer("linear", linear.linear_forward, linear.linear_backward, "linear-forward", "linear-backward",
          (Names(model, "linear_forward", "linear_backward"), Names(attention, "linear_forward", "linear_backward"))),
    Layer("scaled dot-product attention", attention.scaled_dot_product_forward,
          attention.scaled_dot_product_backward, "attention-head", "attention-head-backward",
          (Names(attention, "scaled_dot_product_forward", "scaled_dot_product_backward"),),
          names=("attention_head", "attention_head_backward")),
    Layer("softmax", attention.softmax_forward, attention.softmax_backward, "softmax-forward", "softmax-backward",
          (Names(attention, "softmax_forward", "softmax_backward"),)),
    Layer("feed-forward sublayer", model.mlp_forward, model.mlp_backward, "mlp-forward", None,
          (Pair(model, "MLP"),), arguments=mlp_arguments, learner_results=mlp_learner_results,
          names=("mlp_forward", "mlp_backward"), engine_arguments=mlp_engine_arguments,
          needs=frozenset({"ffn=mlp"})),
    Layer("GELU", activations.gelu_tanh_forward, activations.gelu_tanh_backward, "gelu-forward", "gelu-backward",
          (Entry(activations, "ACTIVATIONS", "gelu"),), needs=frozenset({"ffn=mlp"})),
    Layer("SwiGLU feed-forward", swiglu.swiglu_forward, swiglu.swiglu_backward, "swiglu-forward", None,
          (Names(model, "swiglu_forward", "swiglu_backward"),), needs=frozenset({"ffn=swiglu"})),
    Layer("cross-entropy", loss.cross_entropy_forward, loss.cross_entropy_backward, "cross-entropy-forward",
          "cross-entropy-backward", (Names(model, "cross_entropy_forward", "cross_entropy_backward"),),
          upstream_first=False),
)


class Plain(NamedTuple):
    """A function without a backward that an exercise replaces: ``call(learner, engine, *engine_args)``; ``homes``:
    where the model looks it up; ``needs`` and ``engine_needs`` as a Layer's."""
    name: str
    engine: Callable
    exercise: str
    homes: tuple
    call: Callable = lambda learner, engine, *args: learner(*args)
    needs: frozenset = frozenset()
    engine_needs: frozenset | None = None


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
    multi_head_only("attention_step_forward", num_heads, kv_heads, rope)
    y, k, v = learner(x, params, num_heads, *past)
    return y, (k, v)


ROPE = frozenset({"positions=rope"})
PLAIN = (
    Plain("causal mask", attention.causal_mask, "causal-mask", (Names(attention, "causal_mask"),)),
    Plain("GPT-2 initialisation", init.init_weight, "gpt2-init", (Names(model, "init_weight"),), call=_gpt2_only),
    Plain("learning-rate schedule", optim.learning_rate, "learning-rate", (Names(train, "learning_rate"),)),
    Plain("AdamW step", optim.adamw_step, "adamw-step", (Names(train, "adamw_step"),), call=_adamw_in_place),
    Plain("sampling the next character", generate.sample_next, "sample-next", (Names(generate, "sample_next"),),
          call=_draw_only),
    Plain("attention of one new position over the KV cache", kv_cache.attention_step_forward, "kv-decode-step",
          (Names(kv_cache, "attention_step_forward"),), call=_step_with_cache, needs=LEARNED_MULTI_HEAD,
          engine_needs=frozenset()),
    Plain("rotary positions", rope.rope_forward, "rope-forward", (Names(attention, "rope_forward"),), call=rotate,
          needs=ROPE),
    # no exercise writes the backward: the learner's forward turns the other way (see engine.capstone.rotary)
    Plain("rotary positions, backward", rope.rope_backward, "rope-forward", (Names(attention, "rope_backward"),),
          call=rotate_back, needs=ROPE),
    Plain("key/value heads shared by query heads", attention.expand_kv, "gqa-forward",
          (Names(attention, "expand_kv"), Names(kv_cache, "expand_kv")), needs=frozenset({"kv=shared"})),
)


def _entries():
    """(exercise id, needs) of every function an exercise writes, in call order (forwards, backwards, PLAIN)."""
    return ([(layer.exercise_forward, layer.needs) for layer in LAYERS]
            + [(layer.exercise_backward, layer.needs) for layer in LAYERS] + [(p.exercise, p.needs) for p in PLAIN])


def exercise_ids(config=None):
    """Every exercise whose function the model (or its training loop) calls, in call order, each once: under any
    configuration the page offers, or under ``config`` only."""
    ids = [i for i, needs in _entries() if i and (config is None or calls(needs, config))]
    return list(dict.fromkeys(ids))


def called(functions, config):
    """The entries of ``functions`` ({exercise id: function}) whose function the model ``config`` calls."""
    used = set(exercise_ids(config))
    return {i: function for i, function in functions.items() if i in used}


def not_called(config):
    """{exercise id: why} for every exercise whose function the model ``config`` does not call."""
    reasons = dict(NOT_CALLED)
    used = set(exercise_ids(config))
    for i, needs in _entries():
        if i and i not in used:
            reasons.setdefault(i, why_not(needs, config))
    return reasons


# Exercises the page lists as not used by any of its models, with the reason (``not_called`` adds those one
# configuration does not call).
NOT_CALLED = {
    "relu-backward": "the model uses GELU",
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
    "modern-block-forward": "it counts the attention's parameters; training does not call it",
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
        for home in plain.homes:
            if getattr(home.module, home.forward) is not plain.engine:
                wrong.append(f"{home.module.__name__}.{home.forward}")
    return wrong

