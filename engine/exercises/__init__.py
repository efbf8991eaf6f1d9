"""Practice exercises: the learner writes a layer's function and the engine grades it against its own.

One module per exercise: id ``layernorm-backward`` is module ``layernorm_backward.py``, so adding an exercise is
adding one module (modules starting with ``_`` are the machinery). :func:`grade` is the entry point for tests and
the build, :func:`grade_json` its string-returning twin for the browser's practice worker (which may call
:func:`prepare` first), and :func:`validate` is what the strict build calls for every ``exercise`` fence. See
engine/exercises/README.md for how to write one.

Cases: ``CASES`` are the hand-worked ones (``_spec.case``, ``_spec.random_case``), checked first, in order. An
exercise should also declare ``DOMAIN = Domain(sizes={...}, make=lambda d: {...})`` (``_domain``): what its
statement allows, from which every Run draws fresh cases (8 by default) with a seed shown in the result
(``result["seed"]``; a ``# seed: N`` line in the learner's code replays it) and shrinks a failing one. Example::

    from ._domain import Domain

    DOMAIN = Domain(
        sizes={"rows": range(1, 65), "d": range(1, 769)},      # inclusive ranges (ends drawn often), or tuples
        make=lambda d: {"x": d.normal(d.rows, d.d, scale=(1e-3, 1.0, 1e4), offset=(0.0, 1e3)),
                        "eps": d.pick(1e-5, 0.1)},            # every parameter, defaults set to other values
    )

``Draw`` (``d``) has the sizes as attributes and ``normal``, ``uniform``, ``integers``, ``pick`` and
``generator``; the grader adds non-contiguous views of float inputs. Expected outputs are computed by ``reference``
after the learner's function returns, from inputs made afresh, so ``make`` must be deterministic given ``d``.
"""
import ast
import importlib
import json

from .. import module_names
from ..errors import LayerwiseError
from ._spec import starter

REQUIRED = {"TITLE": str, "STATEMENT": str, "KIND": str, "FUNCTION": str, "STARTER": str, "SOLUTION": str,
            "HINTS": tuple, "PAGE": str, "ORDER": int, "OUTPUTS": tuple, "CASES": tuple}
BUILD_SEED = 0  # the strict build's drawn cases: one build is like the next
STARTER_DEFAULT = ("; left out, it comes from a SOLUTION that parses and defines FUNCTION (KIND 'write') or from "
                   "MISTAKES[0] (KIND 'fix')")


def _module_names():
    return module_names(__path__[0])


def ids():
    """Every exercise id, grouped by page (``PAGE``) and by ``ORDER`` within a page. The pages' own order is the
    site's navigation, which the engine does not know: the build's Practice page sorts the groups by it."""
    modules = [importlib.import_module(f"{__name__}.{name}") for name in _module_names()]
    modules.sort(key=lambda m: (m.PAGE, m.ORDER, m.__name__))
    return [m.__name__.rpartition(".")[2].replace("_", "-") for m in modules]


def get(exercise_id):
    """The module of ``exercise_id``; an unknown id raises ``LayerwiseError`` naming it and the known ones."""
    name = exercise_id.replace("-", "_") if isinstance(exercise_id, str) and "_" not in exercise_id else ""
    if not name.isidentifier() or name not in _module_names():
        known = ", ".join(n.replace("_", "-") for n in _module_names())
        raise LayerwiseError(f"unknown exercise {exercise_id!r}; known exercises: {known}")
    exercise = importlib.import_module(f"{__name__}.{name}")
    if not hasattr(exercise, "STARTER"):
        _give_default_starter(exercise)
    for given in getattr(exercise, "GIVEN", ()):  # imported now, not inside a grade (which drops what it imports)
        if isinstance(given, str):
            get(given)
    return exercise


def _give_default_starter(exercise):
    """A module without STARTER gets the usual one: for "write", SOLUTION's signature and docstring with the body
    left to write (``_spec.starter``); for "fix", SOLUTION with its first known mistake. A module whose SOLUTION
    cannot give one is left without, and :func:`validate` says what the default needs."""
    solution, function = getattr(exercise, "SOLUTION", None), getattr(exercise, "FUNCTION", None)
    kind = getattr(exercise, "KIND", None)
    if not (isinstance(solution, str) and isinstance(function, str)):
        return
    if kind == "write":
        try:
            exercise.STARTER = starter(solution, function)
        except (SyntaxError, StopIteration):  # SOLUTION does not parse, or does not define FUNCTION
            pass
    elif kind == "fix" and getattr(exercise, "MISTAKES", ()):
        exercise.STARTER = exercise.MISTAKES[0].source(solution)


def grade(exercise_id, source, seed=None):
    """Grade the learner's ``source``; returns the JSON-safe result dict. Never raises for what the learner wrote.
    ``seed`` fixes the drawn cases (default: a ``# seed: N`` line in ``source``, else a fresh one)."""
    from ._grader import grade as run_grader  # imported on first use: the worker pays for it only when grading
    return run_grader(get(exercise_id), source, seed)


def grade_json(exercise_id, source):
    """:func:`grade` as JSON text, for the practice worker."""
    return json.dumps(grade(exercise_id, source), allow_nan=False)


def prepare(exercise_ids=None):
    """Import the exercises (default: all of them) and the grader now, and run each exercise's reference once on its
    first case, so that the first Run of each is as fast as the later ones. For the practice worker, right after it
    starts: the first grade otherwise also pays for importing ``numpy.random`` and the grader (a few hundred ms in
    Pyodide). Nothing computed here is kept."""
    from ._expected import expected
    from ._grader import grade as _  # noqa: F401 - imported now, not at the first Run
    for exercise_id in ids() if exercise_ids is None else exercise_ids:
        exercise = get(exercise_id)
        expected(exercise, exercise.CASES[0])


def validate(exercise_id, page=None):
    """Check an exercise for the strict build; raise ``LayerwiseError`` naming page and exercise on any problem.

    Checks: the id exists, the module declares every required attribute, starter and solution are Python that
    defines the function, the solution passes its own tests, the starter does not, and every known mistake is a
    real edit of the solution that fails with its own hint.
    """
    where = f"page '{page}', exercise '{exercise_id}'" if page else f"exercise '{exercise_id}'"
    try:
        exercise = get(exercise_id)
    except LayerwiseError as error:
        raise LayerwiseError(f"{where}: {error}") from None
    problems = _problems(exercise_id, exercise)
    if problems:
        raise LayerwiseError(f"{where}: " + "; ".join(problems))
    return exercise


def _problems(exercise_id, exercise):
    missing = [f"{name} ({kind.__name__}{STARTER_DEFAULT if name == 'STARTER' else ''})"
               for name, kind in REQUIRED.items() if not isinstance(getattr(exercise, name, None), kind)]
    if missing:
        return [f"the module must define {', '.join(missing)}"]
    functions = ("reference", "figure") if getattr(exercise, "LAB", False) else ("reference",)
    problems = [f"the module must define {name}(...)" for name in functions
                if not callable(getattr(exercise, name, None))]
    if exercise.KIND not in ("write", "fix"):
        problems.append(f"KIND must be 'write' or 'fix', got {exercise.KIND!r}")
    for name in ("STARTER", "SOLUTION"):
        try:
            tree = ast.parse(getattr(exercise, name))
        except SyntaxError as error:
            problems.append(f"{name} does not parse: {error.msg} (line {error.lineno})")
            continue
        if not any(isinstance(node, ast.FunctionDef) and node.name == exercise.FUNCTION for node in tree.body):
            problems.append(f"{name} does not define {exercise.FUNCTION}()")
    if problems:
        return problems
    solution = grade(exercise_id, exercise.SOLUTION, BUILD_SEED)
    if not solution["passed"]:
        problems.append(f"the solution fails its own tests: {_verdict(solution)}")
    if grade(exercise_id, exercise.STARTER, BUILD_SEED)["passed"]:
        problems.append("the starter already passes the tests")
    for mistake in getattr(exercise, "MISTAKES", ()):
        if exercise.SOLUTION.count(mistake.old) != 1:
            problems.append(f"known mistake '{mistake.name}': {mistake.old!r} must occur exactly once in SOLUTION")
            continue
        result = grade(exercise_id, mistake.source(exercise.SOLUTION), BUILD_SEED)
        if result["passed"] or (result["failure"] or {}).get("hint") != mistake.hint:
            problems.append(f"known mistake '{mistake.name}' does not fail with its own hint: {_verdict(result)}")
    return problems


def _verdict(result):
    if result["passed"]:
        return "it passes"
    error = result["error"]
    detail = f" ({error['type']}: {error['message']}, line {error['line']})" if error else ""
    return result["failure"]["message"] + detail
