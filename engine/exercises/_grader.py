"""Run a learner's code against an exercise and say, in one sentence, what the first failing check found.

The expected outputs come from the engine's own functions, bound when the exercise module was imported and
evaluated (once, memoised) *before* any learner code runs, so code that reassigns ``engine.norms.layernorm_forward``
cannot change what it is compared with. The learner's code runs in a fresh namespace holding only ``np``; whatever
it raises is reported with the line in *its* source, never the grader's traceback.
"""
import builtins
import contextlib
import io
import warnings

import numpy as np

from ..gradcheck import numerical_gradient, relative_error
from . import _cells
from ._guard import restoring_modules

LEARNER_FILE = "<your code>"
MAX_OUTPUT = 2000  # characters of print() output passed back
GRADCHECK_TOLERANCE = 1e-6

_expected = {}  # exercise module name -> [(case, expected outputs)], filled before any learner code runs
_mistakes = {}  # (module name, mistake name) -> the compiled wrong function


class _Stop(Exception):
    """The first failing check: carries the failure record and, when the learner's code raised, the error."""

    def __init__(self, message, inputs=None, comparison=(None, None, None, ()), hint=None, error=None):
        super().__init__(message)
        expected, got, wrong, _ = comparison
        self.failure = {"message": message, "inputs": inputs or [], "expected": expected, "got": got,
                        "wrong": wrong, "hint": hint}
        self.error = error


def grade(exercise, source):
    """The result dict of the contract (see /ARCHITECTURE.md, Exercises) for ``source`` against ``exercise``."""
    cases = expected_outputs(exercise)
    result = {"passed": False, "checks": [], "failure": None, "error": None, "figure": None, "output": ""}
    checks = result["checks"]
    printed = io.StringIO()
    # NumPy's overflow warnings would be errors under some test settings; the values (inf, nan) tell the story.
    with (restoring_modules(), contextlib.redirect_stdout(printed), warnings.catch_warnings(),
          np.errstate(all="ignore")):
        warnings.simplefilter("ignore")
        check = f"your code runs and defines `{exercise.FUNCTION}`"
        try:
            namespace = _define(exercise, source)
            checks.append({"name": check, "passed": True})
            function = namespace[exercise.FUNCTION]
            for case, expected in cases:
                check = case.label
                _check_case(exercise, function, case, expected, source)
                checks.append({"name": check, "passed": True})
            gradcheck = getattr(exercise, "GRADCHECK", None)
            if gradcheck:
                check = f"gradients agree with central differences of your `{gradcheck.forward}`"
                _check_gradients(exercise, namespace, function, cases[0][0], source)
                checks.append({"name": check, "passed": True})
            result["passed"] = True
            if getattr(exercise, "LAB", False):
                result["figure"] = _figure(exercise, function)
        except _Stop as stop:
            checks.append({"name": check, "passed": False})
            result["failure"], result["error"] = stop.failure, stop.error
        except Exception as error:  # noqa: BLE001 - learner code that broke the grader itself: still a verdict
            checks.append({"name": check, "passed": False})
            result["passed"], result["figure"] = False, None
            result["failure"] = _Stop(f"Your code stopped the grader with {type(error).__name__}.").failure
            result["error"] = _learner_error(error, source)
    result["output"] = printed.getvalue()[:MAX_OUTPUT]
    return result


def expected_outputs(exercise):
    """Every case with the reference's outputs (a tuple of arrays), computed once per exercise."""
    key = exercise.__name__
    if key not in _expected:
        _expected[key] = [(case, _outputs(exercise, exercise.reference(*case.make().values())))
                          for case in exercise.CASES]
    return _expected[key]


def _outputs(exercise, value):
    """The reference's return value as a tuple of arrays, one per name in ``OUTPUTS``."""
    values = value if len(exercise.OUTPUTS) > 1 else (value,)
    return tuple(np.asarray(v) for v in values)


def _define(exercise, source):
    """Run the learner's module-level code; return its namespace, or stop on a syntax error or an exception."""
    try:
        code = compile(source, LEARNER_FILE, "exec")
    except SyntaxError as error:
        line = error.lineno or 0
        raise _Stop(f"Your code is not valid Python: {error.msg} (line {line}).",
                    error={"type": type(error).__name__, "message": error.msg, "line": line,
                           "code": _source_line(source, line)}) from None
    namespace = {"np": np, "__name__": "__learner__", "__builtins__": builtins}
    try:
        exec(code, namespace)
    except (Exception, SystemExit) as error:
        raise _Stop(f"Your code raised {type(error).__name__} before `{exercise.FUNCTION}` was called.",
                    error=_learner_error(error, source)) from None
    if not callable(namespace.get(exercise.FUNCTION)):
        raise _Stop(f"Your code does not define a function `{exercise.FUNCTION}`; keep the name from the starter.")
    return namespace


def _learner_error(error, source):
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


def _shown(case, lead=()):
    """The case's inputs as the feedback shows them (the matrix at ``lead`` of those with more than two axes): made
    afresh, as the learner's function may have written into the ones it was given."""
    return [_cells.named(name, value, lead=lead) for name, value in case.make().items()]


def _call(exercise, function, case, inputs, source):
    try:
        return function(*inputs.values())
    except (Exception, SystemExit) as error:
        raise _Stop(f"`{exercise.FUNCTION}` raised {type(error).__name__} on {case.label}.", _shown(case),
                    hint=_matching_hint(exercise, case, lambda wrong: _raises(wrong, type(error))),
                    error=_learner_error(error, source)) from None


def _raises(function, error_type):
    try:
        function()
    except error_type:
        return True
    except Exception:  # noqa: BLE001 - another error is another mistake
        return False
    return False


def _check_case(exercise, function, case, expected, source):
    got = _learner_outputs(exercise, _call(exercise, function, case, case.make(), source), case)
    for index, (name, want, have) in enumerate(zip(exercise.OUTPUTS, expected, got)):
        message = _difference(case, name, want, have)
        if message:
            comparison = _cells.comparison(name, want, have)
            raise _Stop(message, _shown(case, comparison[3]), comparison,
                        _matching_hint(exercise, case, lambda wrong: _same_output(wrong, index, have)))


def _difference(case, name, want, have):
    """The sentence saying how ``have`` differs from ``want`` (shape, then dtype, then values), or None."""
    if have.shape != want.shape:
        return f"On {case.label}, `{name}` has shape {have.shape} but should have shape {want.shape}."
    if not _same_kind(have, want):
        return f"On {case.label}, `{name}` has dtype {have.dtype} but should have dtype {want.dtype}."
    wrong = int((~_cells.close(have, want)).sum())
    if not wrong:
        return None
    if want.ndim == 0:  # one number: say both, with the digits that tell them apart
        expected, got, _, _ = _cells.comparison(name, want, have)
        return f"On {case.label}, `{name}` is {got['cells'][0][0]} but should be {expected['cells'][0][0]}."
    return f"On {case.label}, `{name}` is wrong in {wrong} of {want.size} entries."


def _same_kind(have, want):
    """Floats must match exactly (float32 is a real mistake); any integer width will do for integers."""
    if want.dtype.kind in "iu":
        return have.dtype.kind in "iu"
    return have.dtype == want.dtype


def _learner_outputs(exercise, value, case):
    """The learner's return value as a tuple of arrays, or stop saying what came back instead."""
    names = exercise.OUTPUTS
    listed = ", ".join(f"`{n}`" for n in names)
    if value is None:
        raise _Stop(f"`{exercise.FUNCTION}` returned None; did you forget a `return`? It should return {listed}.",
                    _shown(case))
    if len(names) == 1:
        if isinstance(value, (tuple, list)) and len(value) != 0 and not _is_numeric(value):
            raise _Stop(f"`{exercise.FUNCTION}` returned {_describe(value)}; it should return one array, {listed}.",
                        _shown(case))
        values = (value,)
    elif not isinstance(value, (tuple, list)) or len(value) != len(names):
        raise _Stop(f"`{exercise.FUNCTION}` should return {len(names)} values ({listed}), but it returned "
                    f"{_describe(value)}.", _shown(case))
    else:
        values = tuple(value)
    arrays = []
    for name, item in zip(names, values):
        array = np.asarray(item) if _is_numeric(item) else None
        if array is None:
            raise _Stop(f"`{name}` should be a NumPy array of numbers, but it is {_describe(item)}.", _shown(case))
        arrays.append(array)
    return tuple(arrays)


def _is_numeric(value):
    try:
        return np.asarray(value).dtype.kind in "biuf"
    except (ValueError, TypeError):  # ragged lists, objects NumPy cannot hold
        return False


def _describe(value):
    if value is None:
        return "None"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)} values"
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return f"a value of type {type(value).__name__}"


def _matching_hint(exercise, case, matches):
    """The hint of the first known mistake that ``matches``: called with a function running it on this case."""
    for mistake in getattr(exercise, "MISTAKES", ()):
        wrong = _mistake_function(exercise, mistake)
        if matches(lambda: _outputs(exercise, wrong(*case.make().values()))):
            return mistake.hint
    return None


def _same_output(run_mistake, index, got):
    """Does the mistake, run on the case, return the learner's value for output ``index``?"""
    try:
        wrong = run_mistake()[index]
    except Exception:  # noqa: BLE001 - a mistake that cannot run on this case does not match it
        return False
    return wrong.shape == got.shape and bool(_cells.close(got, wrong).all())


def _mistake_function(exercise, mistake):
    key = (exercise.__name__, mistake.name)
    if key not in _mistakes:
        namespace = {"np": np, "__name__": "__mistake__"}
        exec(compile(mistake.source(exercise.SOLUTION), f"<mistake {mistake.name}>", "exec"), namespace)
        _mistakes[key] = namespace[exercise.FUNCTION]
    return _mistakes[key]


def _check_gradients(exercise, namespace, backward, case, source):
    """The learner's backward against central differences of the learner's own forward, on the first case."""
    spec = exercise.GRADCHECK
    forward = namespace.get(spec.forward)
    if not callable(forward):
        raise _Stop(f"Your code no longer defines `{spec.forward}`, which the gradient check differentiates.")
    analytic = _learner_outputs(exercise, _call(exercise, backward, case, case.make(), source), case)
    inputs = case.make()  # fresh: the backward may have written into the ones it was given

    def loss():
        out = forward(*(inputs[name] for name in spec.args))
        out = np.asarray(out[0] if isinstance(out, tuple) else out)
        return float(np.sum(out if spec.upstream is None else out * inputs[spec.upstream]))

    for name, gradient in zip(spec.wrt, analytic):
        inputs[name] = np.array(inputs[name], dtype=np.float64)
        try:
            numerical = numerical_gradient(loss, inputs[name])
        except (Exception, SystemExit) as error:
            raise _Stop(f"`{spec.forward}` raised {type(error).__name__} while the gradient check ran it on "
                        f"{case.label}.", _shown(case), error=_learner_error(error, source)) from None
        error = relative_error(gradient, numerical)
        if not error < GRADCHECK_TOLERANCE:
            wrong = ~np.isclose(gradient, numerical, rtol=1e-5, atol=1e-7)
            lead = _cells.first_wrong_matrix(wrong)
            expected, got = (_cells.named(f"d{name}", value, lead=lead) for value in (numerical, gradient))
            raise _Stop(f"Your gradient for `{name}` does not agree with central differences of your "
                        f"`{spec.forward}`: relative error {error:.1e}, it should be below 1e-6.",
                        _shown(case, lead), (expected, got, _cells.matrix(wrong, lead)[0].tolist(), lead))


def _figure(exercise, function):
    """The LAB picture made with the learner's passing function (None if it fails on the lab's bigger input)."""
    try:
        return exercise.figure(function)
    except Exception:  # noqa: BLE001 - the verdict stands; only the picture is missing
        return None
