"""The assembly check: the model's forward and backward on one fixed batch with the learner's functions in place,
against the engine's own; when they differ, the first of the learner's calls inside the model whose output is not
what the engine's function gives on the same inputs.
"""
import copy

import numpy as np

from .. import exercises
from ..data import get_batch
from ..gradcheck import relative_error
from ..model import init_params, loss_and_grads
from . import TOLERANCE
from .layers import called
from .swap import LearnerFailure, describe, swapped

# A gradient is compared relative to its own size, or to this fraction of the whole gradient's when its own is
# smaller: the key biases' gradient is zero up to round-off (softmax ignores a shift common to a row of scores).
FLOOR = 1e-3
NUDGE, NUDGE_SEED = 0.1, 0  # how far the check moves every gain and bias from its initial value (checked_params)


def _outputs(value):
    return value if isinstance(value, tuple) else (value,)


def _difference(got, expected):
    """(relative error, largest absolute difference), or None for a shape that is not the engine's."""
    got, expected = np.asarray(got, dtype=float), np.asarray(expected, dtype=float)
    if got.shape != expected.shape:
        return None
    return relative_error(got, expected), float(np.max(np.abs(got - expected), initial=0.0))


def first_difference(calls):
    """The first recorded call whose output is not the engine's function's output on its inputs (or None)."""
    for call in calls:
        exercise = exercises.get(call.exercise)
        expected = _outputs(exercise.reference(*copy.deepcopy(call.args)))
        got = _outputs(call.output)
        base = {"function": exercise.FUNCTION, "exercise": call.exercise, "where": call.where,
                "shapes": describe(call.exercise, call.args)}
        if len(got) != len(expected):
            return {**base, "problem": f"it returned {len(got)} values; the engine's returns {len(expected)}"}
        for name, mine, theirs in zip(exercise.OUTPUTS, got, expected):
            difference = _difference(mine, theirs)
            if difference is None:
                return {**base, "output": name, "problem": f"{name} has shape {np.shape(mine)}; the engine's "
                                                           f"has {np.shape(theirs)}"}
            error, largest = difference
            if not error <= TOLERANCE:  # also catches NaN
                return {**base, "output": name, "largest": largest,
                        "problem": f"{name} differs from the engine's by up to {largest:.3g}"}
    return None


def check(functions, config, batch):
    """``functions``: {exercise id: learner function}; ``batch``: (ids, targets) ``(B, T)``. Returns a JSON-safe
    dict: ``ok``, ``loss`` (yours, engine), ``worst`` (the parameter whose gradient differs most, and by how
    much), ``culprit`` (first_difference's dict, or the function that raised, with ``error``), ``calls``. Functions
    the model ``config`` does not call are left out."""
    functions = called(functions, config)
    ids, targets = batch
    engine_loss, engine_grads = loss_and_grads(checked_params(config), ids, targets, config)
    calls = []
    try:
        with swapped(functions, recorder=calls) as context:
            params = checked_params(config)
            context.name_params(params)
            loss, grads = loss_and_grads(params, ids, targets, config)
    except LearnerFailure as failure:
        culprit = {"function": failure.function, "where": failure.where, "shapes": failure.shapes,
                   "problem": str(failure), "error": type(failure.error).__name__}
        return {"ok": False, "loss": None, "worst": None, "culprit": culprit, "calls": len(calls)}
    errors = _gradient_errors(grads, engine_grads)
    worst = max(errors, key=lambda name: (not errors[name] <= TOLERANCE, errors[name]))
    loss_error = relative_error(np.float64(loss), np.float64(engine_loss))
    agrees = loss_error <= TOLERANCE and errors[worst] <= TOLERANCE and set(grads) == set(engine_grads)
    culprit = first_difference(calls)
    if agrees and culprit:  # a difference the model cannot see (RoPE turned from position 1: only offsets count)
        culprit["problem"] += "; the model's loss and gradients still agree with the engine's, which cannot see it"
    return {"ok": bool(agrees and culprit is None), "loss": [float(loss), float(engine_loss)],
            "worst": {"name": worst, "error": float(errors[worst])}, "culprit": culprit, "calls": len(calls)}


def checked_params(config):
    """The model the check runs: freshly initialised, then every gain and bias nudged (seeded), so that no two
    of them hold the same numbers. At initialisation every gain is 1 and every bias 0, and a function that takes
    one norm's parameters for another's, or the keys' bias for the values', would compute exactly the engine's."""
    params = init_params(config)
    rng = np.random.default_rng(NUDGE_SEED)
    for name, array in params.items():
        if array.ndim == 1:
            array += NUDGE * rng.standard_normal(array.shape)
    return params


def _gradient_errors(grads, engine_grads):
    """{parameter: norm(yours - engine's) / max(norm(engine's), FLOOR * norm of the whole engine gradient)}."""
    total = np.sqrt(sum(float(np.sum(g * g)) for g in engine_grads.values()))
    errors = {}
    for name, expected in engine_grads.items():
        got = np.asarray(grads.get(name, np.nan), dtype=float)
        if got.shape != expected.shape:
            errors[name] = float("inf")
            continue
        errors[name] = float(np.linalg.norm(got - expected) / max(np.linalg.norm(expected), FLOOR * total))
    return errors


def fixed_batch(train_ids, batch_size, seq_len, seed=0):
    """The check's batch: always the same windows of the training text."""
    return get_batch(train_ids, batch_size, seq_len, np.random.default_rng(seed))
