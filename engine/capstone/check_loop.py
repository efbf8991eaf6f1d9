"""The assembly check beyond one forward and backward: the functions the training loop and generation call with the
model's own arrays, each compared with the engine's on the same inputs (``check`` covers the loss and gradients).

One AdamW step on the check batch's gradients (every parameter after it), one sampling distribution and draw from
the model's last logits with the page's sample settings, and one decode step with the KV cache (the next logits
after the check batch's first window). The first that differs is named like a culprit of ``check``.
"""
import copy

import numpy as np

from .. import generate, kv_cache, optim, train
from ..model import forward, init_params, loss_and_grads
from . import SAMPLE, TOLERANCE
from .check import _difference
from .layers import called
from .swap import LearnerFailure, describe, swapped

TOP_P = 0.9  # the sampler is checked with top-p on too, so all three of its settings are exercised


def _culprit(exercise, function, where, name, got, expected):
    """None when ``got`` agrees with ``expected``; else a culprit dict naming the output and the largest difference."""
    difference = _difference(got, expected)
    if difference is None:
        return {"exercise": exercise, "function": function, "where": where, "output": name,
                "problem": f"{name} has shape {np.shape(got)}; the engine's has {np.shape(expected)}"}
    error, largest = difference
    if error <= TOLERANCE:
        return None
    return {"exercise": exercise, "function": function, "where": where, "output": name, "largest": largest,
            "problem": f"{name} differs from the engine's by up to {largest:.3g}"}


def _optimiser(functions, config, batch):
    params = init_params(config)
    _, grads = loss_and_grads(params, *batch, config)
    expected, state = copy.deepcopy(params), optim.adamw_init(params)
    optim.adamw_step(expected, grads, state, 1e-2)
    yours, your_state = copy.deepcopy(params), optim.adamw_init(params)
    with swapped(functions):
        train.adamw_step(yours, grads, your_state, 1e-2)  # the name the loop calls, bound to yours
    for name in params:
        culprit = _culprit("adamw-step", "adamw_step", f"the optimiser (parameter {name})", f'params["{name}"]',
                           yours[name], expected[name])
        if culprit:
            return {**culprit, "shapes": describe("adamw-step", (params, grads))}
    return None


def _sampler(functions, logits):
    settings = (SAMPLE["temperature"], SAMPLE["top_k"], TOP_P)
    expected = generate.sampling_distribution(logits, *settings)
    args = (logits, np.random.default_rng(0), *settings)
    with swapped(functions) as context:  # called as the swap calls it, so a raise is named like any other
        probs, drawn = context.call("sample-next", args, functions["sample-next"])
    where = "generation (the last position's logits)"
    shapes = describe("sample-next", args)
    culprit = _culprit("sample-next", "sample_next", where, "probs", probs, expected)
    if culprit is None and int(drawn) != int(np.random.default_rng(0).choice(len(expected), p=expected)):
        culprit = {"exercise": "sample-next", "function": "sample_next", "where": where, "output": "next_id",
                   "problem": "next_id is not the id rng.choice(V, p=probs) draws from the same generator"}
    return {**culprit, "shapes": shapes} if culprit else None


def _decode_step(functions, params, config, ids):
    """The next logits after ``ids (1, T - 1)`` and one more id: the engine's full forward against a cache filled
    and extended by the decode step (the learner's attention step inside it)."""
    expected = forward(params, ids, config)[0][:, -1]  # (1, V)
    with swapped(functions):
        got, _ = kv_cache.prefill_by_steps(params, ids, config)
    return _culprit("kv-decode-step", "attention_step", "generation with the KV cache (every block)", "logits", got,
                    expected)


def check_loop(functions, config, batch):
    """The first of the optimiser, sampler and decode step (those of ``functions``) that differs from the engine's,
    as a culprit dict, or None. A learner function that raises is a culprit with ``error``."""
    functions = called(functions, config)
    try:
        if "adamw-step" in functions:
            culprit = _optimiser(functions, config, batch)
            if culprit:
                return culprit
        params = init_params(config)
        ids = batch[0][:1]  # (1, T): the check batch's first window
        if "sample-next" in functions:
            culprit = _sampler(functions, forward(params, ids, config)[0][0, -1])
            if culprit:
                return culprit
        if "kv-decode-step" in functions:
            return _decode_step(functions, params, config, ids)
    except LearnerFailure as failure:
        return {"function": failure.function, "where": failure.where, "shapes": failure.shapes,
                "problem": str(failure), "error": type(failure.error).__name__}
    return None
