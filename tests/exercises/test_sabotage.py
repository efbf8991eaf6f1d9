"""What a mischievous learner's code does stays inside its own grade: the next grade is as if it never ran."""
import builtins
import sys

import numpy as np
import pytest

import engine.norms
from engine import exercises

WATCHED = ("layernorm-forward", "layernorm-backward", "relative-error", "clip-gradients", "gpt2-init",
           "numerical-gradient", "embedding-backward")
SOLUTION = "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    return x\n"  # a wrong answer, overwritten below
REAL = {"np.random.default_rng": np.random.default_rng, "np.linalg.norm": np.linalg.norm, "np.sqrt": np.sqrt,
        "np.isclose": np.isclose, "np.lib.stride_tricks.as_strided": np.lib.stride_tricks.as_strided,
        "len": builtins.len, "engine.norms.layernorm_forward": engine.norms.layernorm_forward}


def baseline():
    """What the watched exercises give for their solutions and first known mistakes, graded cleanly."""
    results = {}
    for exercise_id in WATCHED:
        if exercise_id not in exercises.ids():
            continue
        exercise = exercises.get(exercise_id)
        for name, source in (("solution", exercise.SOLUTION), ("mistake", exercise.MISTAKES[0].source(
                exercise.SOLUTION))):
            result = exercises.grade(exercise_id, source)
            results[exercise_id, name] = (result["passed"], (result["failure"] or {}).get("message"),
                                          (result["failure"] or {}).get("hint"))
    return results


BASELINE = baseline()

SABOTAGE = {
    "numpy's functions and submodules reassigned": '''
import numpy.lib.stride_tricks as st
np.random.default_rng = lambda *args, **kwargs: None
np.linalg.norm = lambda *args, **kwargs: 0.0
np.sqrt = lambda value: value
np.isclose = lambda *args, **kwargs: np.ones(np.shape(args[0]), dtype=bool)
st.as_strided = None
del np.mean
''',
    "numpy reassigned from inside the function": '''
def {function}(*args, **kwargs):
    np.random.default_rng = None
    np.linalg.norm = None
    np.exp = np.log
    return None
''',
    "builtins broken": '''
import builtins
builtins.len = None
builtins.isinstance = None
builtins.BaseException = None
builtins.float = None
''',
    "the engine's functions replaced and its modules dropped": '''
import sys
import engine.norms
engine.norms.layernorm_forward = lambda *args: (0, 0)
sys.modules["engine.norms"] = None
''',
    "KeyboardInterrupt at import": "raise KeyboardInterrupt\n",
    "KeyboardInterrupt in the function": '''
def {function}(*args, **kwargs):
    raise KeyboardInterrupt
''',
    "SystemExit in the function": '''
def {function}(*args, **kwargs):
    raise SystemExit(3)
''',
    "a BaseException of its own": '''
class Escape(BaseException):
    pass

def {function}(*args, **kwargs):
    raise Escape("out")
''',
    "every array input zeroed in place": '''
def {function}(*args, **kwargs):
    for value in args:
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            value[...] = 0.0
    return args[0]
''',
    "the recursion limit and a trace function left behind": '''
import sys
sys.setrecursionlimit(60)
sys.settrace(lambda *args: None)
''',
}


@pytest.mark.parametrize("name", SABOTAGE)
def test_a_sabotaged_grade_fails_and_the_next_grades_are_unaffected(name):
    trace, limit = sys.gettrace(), sys.getrecursionlimit()
    for exercise_id in ("layernorm-forward", "relative-error", "embedding-backward"):
        function = exercises.get(exercise_id).FUNCTION
        result = exercises.grade(exercise_id, SABOTAGE[name].replace("{function}", function))
        assert result["passed"] is False and result["failure"]["message"]
    assert baseline() == BASELINE
    current = {"np.random.default_rng": np.random.default_rng, "np.linalg.norm": np.linalg.norm, "np.sqrt": np.sqrt,
               "np.isclose": np.isclose, "np.lib.stride_tricks.as_strided": np.lib.stride_tricks.as_strided,
               "len": builtins.len, "engine.norms.layernorm_forward": engine.norms.layernorm_forward}
    assert current == REAL and hasattr(np, "mean") and sys.modules["engine.norms"] is engine.norms
    assert (sys.gettrace(), sys.getrecursionlimit()) == (trace, limit)


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "SystemExit", "GeneratorExit"])
def test_base_exceptions_become_a_verdict_with_the_learners_line(raised):
    source = f"def layernorm_forward(x, gamma, beta, eps=1e-5):\n    raise {raised}\n"
    result = exercises.grade("layernorm-forward", source)
    assert result["failure"]["message"] == f"`layernorm_forward` raised {raised} on a 2×4 input worked by hand."
    assert result["error"]["type"] == raised and result["error"]["line"] == 2


def test_reassigned_isclose_cannot_make_a_wrong_answer_pass():
    result = exercises.grade("layernorm-forward", SABOTAGE["numpy's functions and submodules reassigned"] + SOLUTION)
    assert result["failure"]["message"] == "On a 2×4 input worked by hand, `y` is wrong in 8 of 8 entries."


def test_module_level_changes_still_hold_inside_the_learners_own_function():
    source = ("np.layer_mean = lambda x: x.mean(axis=-1, keepdims=True)\n"
              + exercises.get("layernorm-forward").SOLUTION.replace("x.mean(axis=-1, keepdims=True)",
                                                                    "np.layer_mean(x)"))
    assert exercises.grade("layernorm-forward", source)["passed"]
    assert not hasattr(np, "layer_mean")


@pytest.mark.parametrize("route", [
    "from engine.norms import layernorm_forward as lf\n",
    "import importlib\nlf = importlib.import_module('engine.norms').layernorm_forward\n",
    "import engine.exercises\nlf = lambda *a: (engine.exercises.get('layernorm-forward').reference(*a),)\n",
])
def test_the_engines_own_function_is_refused_by_any_route(route):
    source = route + "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    return lf(x, gamma, beta, eps)[0]\n"
    result = exercises.grade("layernorm-forward", source)
    assert result["failure"]["message"] == (
        "Your `layernorm_forward` calls `engine.norms.layernorm_forward`: practice code is plain NumPy, so write it "
        "without `engine.norms.layernorm_forward`.")
    assert not result["passed"]


def test_importing_an_engine_module_afresh_is_no_call():
    real = sys.modules["engine.norms"]
    source = ("import sys\nsys.modules.pop('engine.norms')\nimport engine.norms\n"
              + exercises.get("layernorm-forward").SOLUTION)
    assert exercises.grade("layernorm-forward", source)["passed"]  # the module ran again: no call was made
    assert sys.modules["engine.norms"] is real


def test_an_engine_call_at_import_is_refused_too():
    source = ("import engine.attention\nMASK = engine.attention.causal_mask(50)\n"
              "def causal_mask(T):\n    return MASK[:T, :T]\n")
    assert exercises.grade("causal-mask", source)["failure"]["message"] == (
        "Your code calls `engine.attention.causal_mask`: practice code is plain NumPy, so write it without "
        "`engine.attention.causal_mask`.")


# Reaches beyond the guarded modules' names: each must leave the next grade as it was (the seal, _seal.py).
DEEP_SABOTAGE = {
    "the function behind np.isclose given another body": '''
import numpy._core.numeric as numeric
numeric.isclose._implementation.__code__ = (lambda a, b, rtol=1e-05, atol=1e-08, equal_nan=False:
                                            np.ones(np.shape(a), dtype=bool)).__code__
''',
    "NumPy's private modules' names replaced": '''
import numpy._core.numeric as numeric
import numpy._core.fromnumeric as fromnumeric
numeric.all = lambda *args, **kwargs: True
fromnumeric.mean = lambda *args, **kwargs: 0.0
''',
    "the grader's helpers given another body": '''
import engine.exercises._cells as cells
import engine.exercises._compare as compare
cells.close.__code__ = (lambda have, want: np.ones(np.shape(want), dtype=bool)).__code__
compare.difference.__defaults__ = ()
''',
    "json, np.errstate and the error settings": '''
import json
json.dumps = lambda *args, **kwargs: '{"passed": true}'
np.errstate.__enter__ = lambda self: None
np.seterr(all="raise")
np.set_printoptions(precision=1)
''',
    "sys.modules['numpy'] and gc's callbacks": '''
import gc
import sys
import types
sys.modules["numpy"] = types.ModuleType("numpy")
sys.modules["json"] = None
gc.callbacks.append(lambda phase, info: None)
gc.disable()
''',
}


@pytest.mark.parametrize("name", DEEP_SABOTAGE)
def test_sabotage_beyond_the_guarded_names_leaves_the_next_grades_unchanged(name):
    import gc
    import json
    settings = np.geterr()  # as this process has them (an earlier test may have changed NumPy's defaults)
    for exercise_id in ("layernorm-forward", "relative-error"):
        exercise = exercises.get(exercise_id)
        exercises.grade(exercise_id, DEEP_SABOTAGE[name] + exercise.SOLUTION)
        assert exercises.grade_json(exercise_id, exercise.MISTAKES[0].source(exercise.SOLUTION)).startswith(
            '{"passed": false')
    assert baseline() == BASELINE
    assert sys.modules["numpy"] is np and json.dumps({"a": 1}) == '{"a": 1}' and gc.isenabled()
    assert np.geterr() == settings and np.isclose(1.0, 2.0) == False  # noqa: E712 - a NumPy bool


@pytest.mark.parametrize("submodule", ["np.fft.fft(x)", "np.ma.masked_invalid(x)", "np.polynomial.Polynomial([1])"])
def test_a_lazily_imported_numpy_submodule_works_in_every_case_and_grade(submodule):
    exercise = exercises.get("softmax-forward")
    source = exercise.SOLUTION.replace("    e = np.exp", f"    _ = {submodule}\n    e = np.exp")
    for _ in range(2):
        result = exercises.grade("softmax-forward", source)
        assert result["passed"], result["failure"]
    assert exercises.grade("layernorm-forward", exercises.get("layernorm-forward").SOLUTION)["passed"]


FIND = """
def find(value, x, depth=0):
    # an array shaped like x but not x itself, anywhere inside value (tuples, lists, dicts, records)
    if isinstance(value, np.ndarray):
        return value if value.shape == x.shape and not np.array_equal(value, x) else None
    if depth < 6 and isinstance(value, (tuple, list, dict)):
        for item in (value.values() if isinstance(value, dict) else value):
            found = find(item, x, depth + 1)
            if found is not None:
                return found
    return None
"""
READERS = {
    "the grader's frames": FIND + '''
import sys

def layernorm_forward(x, gamma, beta, eps=1e-5):
    frame = sys._getframe(1)
    while frame is not None:
        found = find(list(frame.f_locals.values()), x)
        if found is not None:
            return found
        frame = frame.f_back
    return x
''',
    "gc's objects": FIND + '''
import gc

def layernorm_forward(x, gamma, beta, eps=1e-5):
    for item in gc.get_objects():
        if isinstance(item, (tuple, list, dict)):
            found = find(item, x, 5)
            if found is not None:
                return found
    return x
''',
    "the modules of the grader": FIND + '''
import sys

def layernorm_forward(x, gamma, beta, eps=1e-5):
    for name, module in list(sys.modules.items()):
        if name.startswith("engine.exercises"):
            found = find([v for v in vars(module).values() if isinstance(v, (dict, list, tuple))], x)
            if found is not None:
                return found
    return x
''',
}


@pytest.mark.parametrize("name", READERS)
def test_a_program_reading_the_expected_outputs_from_memory_does_not_pass(name):
    for _ in range(2):  # the second grade too: nothing of the first is left to read
        result = exercises.grade("layernorm-forward", READERS[name])
        assert not result["passed"]
        assert result["failure"]["message"].startswith("On a 2×4 input worked by hand, `y` ")  # its first case
