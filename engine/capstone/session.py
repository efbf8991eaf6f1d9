"""What the browser's practice worker calls to check and train the learner's GPT, a chunk of steps at a time.

The page asks for one chunk after another (Pause = not asking for more), so the worker is free between chunks and
the run's state (``engine.train.TrainRun``) waits here in module scope. JSON text in and out, like the grader's.
"""
import json
import math
import os
import tempfile
import time

import numpy as np

from . import BATCH_SIZE, SAMPLE, SAMPLE_EVERY, config, settings
from .check import check, fixed_batch
from .check_loop import check_loop
from .layers import called
from .learner import TookTooLong, define_all, isolated
from .swap import LearnerFailure, swapped
from ..checkpoint import save_checkpoint
from ..data import build_vocab, encode, load_corpus, split_ids
from ..errors import LayerwiseError
from ..generate import generate_steps, generate_text
from ..kv_cache import prefill_by_steps
from ..train import TrainRun, train_step

LOOP_LIMIT_S = 3.0  # a learner's loop still running this long into a request is stopped (the page waits longer)
_text = []
_current = {}  # "run": TrainRun, "functions": {exercise id: function}


def _corpus():
    if not _text:
        _text.append(load_corpus())
    return _text[0]


def _failure(failure, step=None):
    """One sentence naming the learner's function (and the step) that stopped the run or the check."""
    at = f"at step {step} " if step is not None else ""
    if isinstance(failure, LearnerFailure) and isinstance(failure.error, TookTooLong):
        return (f"your {failure.function} was still running after {LOOP_LIMIT_S:g} s (an endless loop?) {at}in "
                f"{failure.where}, given {failure.shapes}")
    if isinstance(failure, LearnerFailure):
        return f"{failure} {at}".rstrip()
    return (f"the engine raised {type(failure).__name__}: {failure} {at}(after your functions returned: run the "
            f"check to see which one's output is off)")


def _model_and_functions(request):
    """The model of the request's ``preset`` and the learner's functions it calls, from their passed sources (a
    source the model does not call is not graded: it plays no part)."""
    model = config(request.get("preset", "gpt2"))
    return model, define_all(called(request["sources"], model))


def check_json(request_json):
    """The assembly check of {sources: {exercise id: source}, preset} on the preset's model, as JSON."""
    try:
        model, functions = _model_and_functions(json.loads(request_json))
    except LayerwiseError as error:  # NotPassing, or a preset the page does not offer
        return json.dumps({"ok": False, "problem": str(error)})
    vocab = build_vocab(_corpus())
    model = model.with_overrides(vocab_size=len(vocab))
    train_ids, _ = split_ids(encode(_corpus(), vocab))
    batch = fixed_batch(train_ids, BATCH_SIZE, model.seq_len)
    with isolated(LOOP_LIMIT_S):
        result = check(functions, model, batch)
        if result["ok"]:  # the model agrees: now what the loop and generation call with its arrays
            culprit = check_loop(functions, model, batch)
            result.update(ok=culprit is None, culprit=culprit)
    return json.dumps(result, allow_nan=False, default=float)


def start_json(request_json):
    """A new run: {sources, steps, lr, seed, preset} (preset: a key of PRESETS, "gpt2" when absent); answers {ok,
    steps} or {ok: false, problem}."""
    request = json.loads(request_json)
    _current.clear()
    try:
        model, functions = _model_and_functions(request)
        run_settings = settings(request["steps"], request["lr"], request["seed"], request.get("preset", "gpt2"))
        with isolated(LOOP_LIMIT_S), swapped(functions):  # initialisation may be the learner's gpt2_init
            run = TrainRun(model, _corpus(), run_settings)
    except LearnerFailure as failure:
        return json.dumps({"ok": False, "problem": _failure(failure, 0)})
    except LayerwiseError as error:  # NotPassing, a setting or a preset the page does not offer
        return json.dumps({"ok": False, "problem": str(error)})
    _current.update(run=run, functions=functions)
    return json.dumps({"ok": True, "steps": run.settings.steps})


def run_json(max_steps, budget_ms):
    """The next chunk: {step, losses, val, samples, done, problem}. Steps (at least one, at most ``max_steps``)
    while the next one, timed like the last, still fits in ``budget_ms``; a sample (as long as several steps) is a
    chunk of its own, the one after the step it follows."""
    run = _current["run"]
    start, losses, samples = time.perf_counter(), [], []
    val_before = len(run.history["val_loss"])
    problem = None
    try:
        with isolated(LOOP_LIMIT_S), swapped(_current["functions"]) as context:
            context.name_params(run.params)
            if _current.get("sample_due"):
                samples.append([run.step, _sample(run)])
                _current["sample_due"] = False
            else:
                last_ms = 0.0
                while not run.done and len(losses) < max_steps and (
                        not losses or (time.perf_counter() - start) * 1000 + last_ms <= budget_ms):
                    began = time.perf_counter()
                    losses.append(_number(train_step(run)))
                    last_ms = (time.perf_counter() - began) * 1000
                    if run.step % SAMPLE_EVERY == 0 or run.done:
                        _current["sample_due"] = True
                        break
    except Exception as error:  # noqa: BLE001 - the learner's failure or what it caused: one message, run over
        problem = _failure(error, run.step + 1)
        _current.clear()
    val = [[step, _number(loss)] for step, loss in run.history["val_loss"][val_before:]]
    done = run.done and not _current.get("sample_due")
    return json.dumps({"step": run.step, "losses": losses, "val": val, "samples": samples, "done": done,
                       "problem": problem}, allow_nan=False)


def _number(value):
    """A float for JSON; null for a loss that is no longer finite (a learner's function gone wrong)."""
    value = float(value)
    return value if math.isfinite(value) else None


def _sample(run):
    return generate_text(run.params, run.config, run.vocab, SAMPLE["prompt"], SAMPLE["tokens"], seed=run.settings.seed,
                         temperature=SAMPLE["temperature"], top_k=SAMPLE["top_k"])


def generate_start_json(request_json):
    """Generation from the current run's model with the learner's functions (their sampler, and their decode step
    with the cache once passed): {prompt, tokens, temperature, top_k, top_p, seed}; answers {ok, cached} or {ok:
    false, problem}. The characters come from :func:`generate_next_json`, a few at a time."""
    request = json.loads(request_json)
    run = _current.get("run")
    if run is None:
        return json.dumps({"ok": False, "problem": "there is no model yet: train first"})
    cached = "kv-decode-step" in _current["functions"]
    try:
        ids = encode(request["prompt"], run.vocab)
    except LayerwiseError as error:
        return json.dumps({"ok": False, "problem": str(error)})
    _current["generation"] = {
        "steps": generate_steps(run.params, run.config, ids, np.random.default_rng(request["seed"]),
                                request["temperature"], request["top_k"] or None, kv_cache=cached,
                                top_p=request["top_p"], fill_cache=prefill_by_steps),
        "left": request["tokens"]}
    return json.dumps({"ok": True, "cached": cached})


def generate_next_json(budget_ms):
    """The next characters of the generation begun by :func:`generate_start_json`: {text, done, problem, calls}, where
    ``calls`` counts the calls of each of the learner's functions in this chunk (what the page says was yours)."""
    generation, run = _current.get("generation"), _current.get("run")
    if generation is None:
        return json.dumps({"text": "", "done": True, "problem": "nothing is being generated"})
    start, text, problem, context = time.perf_counter(), [], None, None
    try:
        with isolated(LOOP_LIMIT_S), swapped(_current["functions"]) as context:
            while generation["left"] > 0 and (not text or (time.perf_counter() - start) * 1000 < budget_ms):
                _, new_id = next(generation["steps"])
                text.append(run.vocab[new_id])
                generation["left"] -= 1
    except Exception as error:  # noqa: BLE001 - the learner's failure: one message, generation over
        problem = f"{_failure(error)} while generating"
        generation["left"] = 0
    done = generation["left"] == 0
    if done:
        _current.pop("generation", None)
    return json.dumps({"text": "".join(text), "done": done, "problem": problem,
                       "calls": context.counts if context else {}})


def checkpoint_bytes():
    """The current run's model as the bytes of a checkpoint file (``python -m engine talk --checkpoint`` reads it)."""
    run = _current["run"]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "your-gpt.npz")
        save_checkpoint(path, run.params, run.config, run.vocab, run.step)
        with open(path, "rb") as file:
            return file.read()
