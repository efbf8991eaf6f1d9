"""The learner's functions, made from the code of exercises they passed, and the isolation they run under.

Each source is graded again here (storage can hold code edited after its pass), then run in a fresh namespace as the
grader does. While learner code runs (``isolated()``) NumPy warnings are off, ``print`` goes nowhere, and whatever
it reassigns in ``engine.*``, ``numpy`` or ``builtins`` is put back afterwards (``exercises._guard``). Where Python
has ``sys.monitoring`` (3.12+, so Pyodide's 3.13), a loop in learner code past the deadline raises
``TookTooLong``: the page learns which function looped; elsewhere only the page's time limit stops it.
"""
import builtins
import contextlib
import io
import sys
import time
import warnings

import numpy as np
import numpy.random  # noqa: F401 - see below

from .. import exercises
from ..errors import LayerwiseError
from ..exercises._given import functions as given_functions
from ..exercises._guard import restoring_modules
from .swap import views

# numpy.random must be imported before the first isolated run: NumPy sets np.random lazily, restoring_modules() would
# take that attribute away again while sys.modules keeps the module, and every later np.random would then recurse.
WATCHDOG_TOOL = 5  # a sys.monitoring tool id (OPTIMIZER_ID, unused by Pyodide and by the engine)
_deadline = [float("inf")]  # perf_counter() time after which a loop in learner code stops


class TookTooLong(Exception):
    """Learner code was still looping at the deadline."""


class NotPassing(LayerwiseError):
    """A stored exercise's code does not pass its exercise (now)."""


def _on_jump(code, offset, destination):
    if time.perf_counter() > _deadline[0]:
        raise TookTooLong(f"still running after the time limit (an endless loop?), in line {code.co_firstlineno}")


def _code_objects(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            yield from _code_objects(const)


def _watch(code):
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return
    if monitoring.get_tool(WATCHDOG_TOOL) is None:
        monitoring.use_tool_id(WATCHDOG_TOOL, "layerwise watchdog")
        monitoring.register_callback(WATCHDOG_TOOL, monitoring.events.JUMP, _on_jump)
    for each in _code_objects(code):  # loops of learner code only: the engine and NumPy run unobserved
        monitoring.set_local_events(WATCHDOG_TOOL, each, monitoring.events.JUMP)


@contextlib.contextmanager
def isolated(seconds):
    """Run learner code: the grader's isolation, and loops in it stopped after ``seconds``."""
    _deadline[0] = time.perf_counter() + seconds
    try:
        with (restoring_modules(), contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(),
              np.errstate(all="ignore")):
            warnings.simplefilter("ignore")
            yield
    finally:
        _deadline[0] = float("inf")


def define(exercise_id, source):
    """The learner's function of ``exercise_id`` from ``source``, which must pass the exercise; else NotPassing."""
    exercise = exercises.get(exercise_id)
    result = exercises.grade(exercise_id, source)
    if not result["passed"]:
        why = (result["failure"] or {}).get("message", "it fails a check")
        raise NotPassing(f"your {exercise.FUNCTION} does not pass its exercise now ({why}); run it on its page, or "
                         f"use the engine's")
    code = compile(source, f"<your {exercise.FUNCTION}>", "exec")
    namespace = {"np": np, "__name__": "__learner__", "__builtins__": builtins, **given(exercise)}
    with isolated(seconds=5.0):
        _watch(code)
        exec(code, namespace)
    return namespace[exercise.FUNCTION]


def given(exercise):
    """The functions a composition exercise hands the learner by name (its GIVEN): here the model's own, yours
    where you passed them (``swap.views``); a given function the model does not call stays the exercise's."""
    functions = given_functions(getattr(exercise, "GIVEN", ()))
    model_views = views()
    return {name: model_views.get(name, function) for name, function in functions.items()}


def define_all(sources):
    """{exercise id: function} from {exercise id: source}."""
    return {exercise_id: define(exercise_id, source) for exercise_id, source in sources.items()}
