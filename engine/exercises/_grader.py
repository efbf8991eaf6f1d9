"""Run a learner's code against an exercise and say, in one sentence, what the first failing check found.

The cases are the exercise's hand-worked ``CASES`` (their feedback is what a learner sees first), then cases drawn
fresh from its ``DOMAIN`` on every Run (``_domain``; a failing one is shrunk to the smallest failure found). The
expected outputs are computed after the learner's function has returned, from inputs made afresh (``_expected``):
there is nothing to read out of memory while it runs. The learner's code runs in windows (``_learner``): a fresh
namespace holding only ``np``, its changes to NumPy, the engine and the builtins undone when each window closes,
the engine's own functions refused. Whatever it raises is reported with the line in *its* source, never the
grader's traceback.
"""
import contextlib
import io
import os
import time
import types
import warnings

import numpy as np

from ..gradcheck import numerical_gradient, relative_error
from . import _cells
from ._compare import Stop, agrees, changed_input, copies, difference, entries, returned_arrays, same_kind, shown
from ._domain import drawn_cases, seed_of, smaller
from ._expected import expected, mistakes
from ._given import functions as given_functions
from ._guard import ModuleGuard, dropping_new_engine_modules
from ._learner import LEARNER_FILE, Learner, Raised, Refused

MAX_OUTPUT = 2000  # characters of print() output passed back
GRADCHECK_TOLERANCE = 1e-6
ROUND_OFF = 1e-8  # of the largest expected entry, for outputs an exercise names in ROUND_OFF
SHRINK_SECONDS = 1.0  # the shrinker's time, after the first failing drawn case (the worker stops a Run at 5 s)


def fresh_seed():
    """A seed for one Run's drawn cases: six digits, easy to type into ``# seed: N``."""
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


def grade(exercise, source, seed=None):
    """The result dict of the contract (see /ARCHITECTURE.md, Exercises) for ``source`` against ``exercise``. The
    drawn cases come from ``seed``, else from a ``# seed: N`` line in ``source``, else from a fresh seed; the
    result's ``seed`` says which (None for an exercise without ``DOMAIN``)."""
    domain = getattr(exercise, "DOMAIN", None)
    if domain is not None and seed is None:
        seed = seed_of(source)
        seed = fresh_seed() if seed is None else seed
    result = {"passed": False, "checks": [], "failure": None, "error": None, "figure": None, "output": "",
              "seed": seed if domain is not None else None}
    checks = result["checks"]
    printed = io.StringIO()
    # NumPy's overflow warnings would be errors under some test settings; the values (inf, nan) tell the story.
    with (dropping_new_engine_modules(), contextlib.redirect_stdout(printed), warnings.catch_warnings(),
          np.errstate(all="ignore")):
        warnings.simplefilter("ignore")
        guard = ModuleGuard()
        learner = Learner(source, guard, _answers(exercise), given_functions(getattr(exercise, "GIVEN", ())))
        check = f"your code runs and defines `{exercise.FUNCTION}`"
        try:
            function = _define(exercise, learner)
            checks.append({"name": check, "passed": True})
            for case in exercise.CASES:
                check = case.label
                _check_case(exercise, learner, function, case)
                checks.append({"name": check, "passed": True})
            gradcheck = getattr(exercise, "GRADCHECK", None)
            if gradcheck:
                check = f"gradients agree with central differences of your `{gradcheck.forward}`"
                _check_gradients(exercise, learner, function, exercise.CASES[0])
                checks.append({"name": check, "passed": True})
            if domain is not None:
                check = f"{domain.count} cases drawn from what the statement allows (seed {seed})"
                _check_drawn(exercise, learner, function, domain, seed)
                checks.append({"name": check, "passed": True})
            result["passed"] = True
            if getattr(exercise, "LAB", False):
                result["figure"] = _figure(exercise, learner, function)
        except Stop as stop:
            checks.append({"name": check, "passed": False})
            result["failure"], result["error"] = stop.failure, stop.error
        except Exception as error:  # noqa: BLE001 - learner code that broke the grader itself: still a verdict
            checks.append({"name": check, "passed": False})
            result["passed"], result["figure"] = False, None
            result["failure"] = Stop(f"Your code stopped the grader with {type(error).__name__}.").failure
            result["error"] = learner_error(error, source)
        finally:
            guard.restore()
            guard.restore_interpreter()
    result["output"] = printed.getvalue()[:MAX_OUTPUT]
    return result


def _answers(exercise):
    """The code objects of the engine functions the exercise's module bound (its reference's parts)."""
    return {value.__code__ for value in vars(exercise).values()
            if isinstance(value, types.FunctionType) and value.__module__.startswith("engine.")
            and not value.__module__.startswith("engine.exercises")}


def _define(exercise, learner):
    """Run the learner's module-level code; return its function, or stop on a syntax error or an exception."""
    try:
        namespace = learner.define()
    except SyntaxError as error:
        line = error.lineno or 0
        raise Stop(f"Your code is not valid Python: {error.msg} (line {line}).",
                   error={"type": type(error).__name__, "message": error.msg, "line": line,
                          "code": _source_line(learner.source, line)}) from None
    except Raised as raised:
        raise Stop(f"Your code raised {type(raised.error).__name__} before `{exercise.FUNCTION}` was called.",
                   error=learner_error(raised.error, learner.source)) from None
    except Refused as refused:
        raise _refusal("Your code", refused.name) from None
    function = namespace.get(exercise.FUNCTION)
    if not callable(function):
        raise Stop(f"Your code does not define a function `{exercise.FUNCTION}`; keep the name from the starter.")
    return function


def _refusal(who, name):
    return Stop(f"{who} calls `{name}`: practice code is plain NumPy, so write it without `{name}`.")


def learner_error(error, source):
    """Type, message and the deepest line of the learner's own code in the traceback (None if it has none)."""
    line = None
    traceback = error.__traceback__
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename == LEARNER_FILE:
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    return {"type": type(error).__name__, "message": _message(error), "line": line,
            "code": _source_line(source, line) if line else None}


def _message(error):
    try:
        return str(error)
    except Exception:  # noqa: BLE001 - the learner's own exception class may fail to print itself
        return ""


def _source_line(source, line):
    lines = source.splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _call(exercise, learner, function, case, inputs):
    """The learner's function on ``inputs`` as a tuple of arrays, or stop on an exception or an engine call."""
    try:
        returned = learner.call(function, tuple(inputs.values()))
    except Raised as raised:
        raise Stop(f"`{exercise.FUNCTION}` raised {type(raised.error).__name__} on {case.label}.", shown(case),
                   error=learner_error(raised.error, learner.source)) from None
    except Refused as refused:
        raise _refusal(f"Your `{exercise.FUNCTION}`", refused.name) from None
    return returned_arrays(exercise, returned, case)


def _check_drawn(exercise, learner, function, domain, seed):
    """Every drawn case; the first that fails is shrunk, and its Stop says how to draw the same cases again."""
    for drawn in drawn_cases(domain, seed):
        try:
            _check_case(exercise, learner, function, drawn.case)
        except Stop as stop:
            stop = _shrunk(exercise, learner, function, domain, drawn, stop)
            stop.failure["message"] += f" Put `# seed: {seed}` in your code to draw the same cases again."
            raise stop from None


def _shrunk(exercise, learner, function, domain, drawn, stop):
    """The Stop of the simplest variant of ``drawn`` that still fails (see ``_domain.smaller``), within
    SHRINK_SECONDS."""
    deadline = time.perf_counter() + SHRINK_SECONDS
    simpler = True
    while simpler and time.perf_counter() < deadline:
        simpler = False
        for variant in smaller(domain, drawn):
            if time.perf_counter() >= deadline:
                break
            try:
                _check_case(exercise, learner, function, variant.case)
            except Stop as failed:
                drawn, stop, simpler = variant, failed, True
                break
    return stop


def _check_case(exercise, learner, function, case):
    inputs = case.make()
    before = copies(inputs)
    got = _call(exercise, learner, function, case, inputs)
    want = expected(exercise, case)  # only now, from inputs made afresh
    got = settled(exercise, want, got)
    for index, (name, wanted, have) in enumerate(zip(exercise.OUTPUTS, want, got)):
        for label, wanted_array, have_array in entries(case, name, wanted, have):
            message = difference(case, label, wanted_array, have_array)
            if message:
                comparison = _cells.comparison(label, wanted_array, have_array)
                raise Stop(message, shown(case, comparison[3]), comparison,
                           _matching_hint(exercise, case, want, index, got))
    changed = changed_input(inputs, before, getattr(exercise, "MAY_CHANGE_INPUTS", ()))
    if changed:
        raise Stop(f"On {case.label}, `{exercise.FUNCTION}` changed its input `{changed}` in place. Leave the "
                   f"caller's arrays as they were: the model still needs them after this call. Work on new arrays "
                   f"(`{changed} = {changed} - ...` rather than `{changed} -= ...`).", shown(case))


def settled(exercise, want, got):
    """``got`` with each output named in the exercise's ``ROUND_OFF`` (0 up to round-off whatever the inputs, such
    as attention's key-bias gradient) taken as expected when it is within 1e-8 of the case's largest expected
    entry: its round-off follows the order of the sums, not the math."""
    names = getattr(exercise, "ROUND_OFF", ())
    if not names:
        return got
    scale = max(float(np.max(np.abs(wanted), initial=0.0)) for wanted in want)
    return tuple(wanted if name in names and have.shape == wanted.shape and same_kind(have, wanted)
                 and bool(np.all(np.abs(have - wanted) <= ROUND_OFF * scale)) else have
                 for name, wanted, have in zip(exercise.OUTPUTS, want, got))


def _matching_hint(exercise, case, want, index, got):
    """The hint of the first known mistake that returns on this case what the learner's code returned (every
    output), where output ``index`` is wrong: a mistake that raises, or that is right there, explains nothing."""
    for mistake, outputs in mistakes(exercise, case):
        outputs = outputs if outputs is None else settled(exercise, want, outputs)
        if (outputs is not None and all(agrees(have, wrong) for have, wrong in zip(got, outputs))
                and not agrees(outputs[index], want[index])):
            return mistake.hint
    return None


def _check_gradients(exercise, learner, backward, case):
    """The learner's backward against central differences of the learner's own forward, on the first case."""
    spec = exercise.GRADCHECK
    forward = learner.namespace.get(spec.forward)
    if not callable(forward):
        raise Stop(f"Your code no longer defines `{spec.forward}`, which the gradient check differentiates.")
    analytic = _call(exercise, learner, backward, case, case.make())
    inputs = case.make()  # fresh: the backward may have written into the ones it was given

    def loss():
        out = forward(*(inputs[name] for name in spec.args))
        out = np.asarray(out[0] if isinstance(out, tuple) else out)
        return float(np.sum(out if spec.upstream is None else out * inputs[spec.upstream]))

    for name, gradient in zip(spec.wrt, analytic):
        if name is None:  # a gradient the loss cannot show (attention's key bias: 0 up to round-off)
            continue
        inputs[name] = np.array(inputs[name], dtype=np.float64)
        try:
            numerical = learner.run(numerical_gradient, (loss, inputs[name]))
        except Raised as raised:
            raise Stop(f"`{spec.forward}` raised {type(raised.error).__name__} while the gradient check ran it on "
                       f"{case.label}.", shown(case), error=learner_error(raised.error, learner.source)) from None
        error = relative_error(gradient, numerical)
        if not error < GRADCHECK_TOLERANCE:
            wrong = ~np.isclose(gradient, numerical, rtol=1e-5, atol=1e-7)
            lead = _cells.first_wrong_matrix(wrong)
            expected, got = (_cells.named(f"d{name}", value, lead=lead) for value in (numerical, gradient))
            raise Stop(f"Your gradient for `{name}` does not agree with central differences of your "
                       f"`{spec.forward}`: relative error {error:.1e}, it should be below 1e-6.",
                       shown(case, lead), (expected, got, _cells.matrix(wrong, lead)[0].tolist(), lead))


def _figure(exercise, learner, function):
    """The LAB picture made with the learner's passing function (None if it fails on the lab's bigger input)."""
    try:
        return learner.run(exercise.figure, (function,))
    except Exception:  # noqa: BLE001 - the verdict stands; only the picture is missing
        return None
