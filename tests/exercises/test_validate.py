"""The strict build's check of an exercise: each way an exercise can be broken fails naming page and exercise."""
import types

import pytest

from engine import exercises
from engine.errors import LayerwiseError
from engine.exercises._spec import Mistake, starter

LAYERNORM = exercises.get("layernorm-forward")


def broken(monkeypatch, name, **changes):
    """A copy of the layernorm-forward exercise with ``changes``, served by ``get`` under the id ``name``."""
    module = types.ModuleType(f"engine.exercises.{name}")
    module.__dict__.update({key: value for key, value in vars(LAYERNORM).items() if not key.startswith("__")})
    module.__dict__.update(changes)
    real_get = exercises.get
    monkeypatch.setattr(exercises, "get", lambda exercise_id: module if exercise_id == name else real_get(exercise_id))
    return name


def test_an_unknown_exercise_names_the_page_and_the_known_ids():
    with pytest.raises(LayerwiseError) as error:
        exercises.validate("layer-norm", page="layers/layernorm.md")
    message = str(error.value)
    assert message.startswith("page 'layers/layernorm.md', exercise 'layer-norm': unknown exercise 'layer-norm'; "
                              "known exercises: ")
    assert "layernorm-forward" in message


def test_get_rejects_ids_that_are_not_module_names():
    for bad in ("../norms", "_grader", "layernorm_forward", "", None):
        with pytest.raises(LayerwiseError, match="unknown exercise"):
            exercises.get(bad)


def test_a_starter_that_does_not_parse(monkeypatch):
    name = broken(monkeypatch, "bad_starter", STARTER="def layernorm_forward(x, gamma, beta:\n    pass\n")
    with pytest.raises(LayerwiseError) as error:
        exercises.validate(name, page="layers/layernorm.md")
    assert str(error.value) == ("page 'layers/layernorm.md', exercise 'bad_starter': STARTER does not parse: "
                                "'(' was never closed (line 1)")


def test_a_solution_that_fails_its_own_tests(monkeypatch):
    solution = LAYERNORM.SOLUTION.replace("return gamma * x_hat + beta", "return x_hat + beta")
    name = broken(monkeypatch, "bad_solution", SOLUTION=solution, MISTAKES=())
    with pytest.raises(LayerwiseError) as error:
        exercises.validate(name, page="layers/layernorm.md")
    assert str(error.value) == ("page 'layers/layernorm.md', exercise 'bad_solution': the solution fails its own "
                                "tests: On a 2×4 input worked by hand, `y` is wrong in 8 of 8 entries.")


def test_a_solution_that_raises_reports_the_error(monkeypatch):
    name = broken(monkeypatch, "raising_solution", SOLUTION=LAYERNORM.SOLUTION.replace("np.sqrt", "np.squareroot"),
                  MISTAKES=())
    with pytest.raises(LayerwiseError, match=r"raised AttributeError on a 2×4 input worked by hand\. "
                                             r"\(AttributeError: .*squareroot.*, line 5\)"):
        exercises.validate(name)


def test_a_starter_that_already_passes(monkeypatch):
    name = broken(monkeypatch, "solved_starter", STARTER=LAYERNORM.SOLUTION)
    with pytest.raises(LayerwiseError, match="exercise 'solved_starter': the starter already passes the tests"):
        exercises.validate(name)


def test_a_mistake_that_is_not_an_edit_of_the_solution_or_not_recognised(monkeypatch):
    mistakes = (Mistake("typo", "np.sqrt(var - eps)", "np.sqrt(var)", "hint a"),
                Mistake("harmless", "return gamma * x_hat + beta", "return beta + gamma * x_hat", "hint b"))
    name = broken(monkeypatch, "bad_mistakes", MISTAKES=mistakes)
    with pytest.raises(LayerwiseError) as error:
        exercises.validate(name)
    assert str(error.value) == ("exercise 'bad_mistakes': known mistake 'typo': 'np.sqrt(var - eps)' must occur "
                                "exactly once in SOLUTION; known mistake 'harmless' does not fail with its own hint: "
                                "it passes")


def test_a_module_missing_required_attributes(monkeypatch):
    name = broken(monkeypatch, "no_hints", HINTS=None, CASES=[])
    with pytest.raises(LayerwiseError, match=r"exercise 'no_hints': the module must define HINTS \(tuple\), "
                                             r"CASES \(tuple\)"):
        exercises.validate(name)


def test_a_write_starter_keeps_signature_docstring_and_given_functions():
    solution = ('def forward(x):\n    return 2 * x\n\n\n'
                'def backward(dy,\n             x):\n    """Return dx."""\n    y = forward(x)\n    return 2 * dy\n\n\n'
                'def helper():\n    pass\n')
    assert starter(solution, "backward") == ('def forward(x):\n    return 2 * x\n\n\n'
                                             'def backward(dy,\n             x):\n    """Return dx."""\n'
                                             '    # your code here\n\n\ndef helper():\n    pass\n')
    assert starter("def f(x):\n    return x\n", "f") == "def f(x):\n    # your code here\n"


def test_prepare_keeps_no_expected_output_and_names_an_unknown_id():
    from engine.exercises import _expected
    exercises.prepare(["relu-backward"])
    assert not [name for name, value in vars(_expected).items()
                if isinstance(value, (dict, list)) and not name.startswith("__")]
    assert exercises.grade("relu-backward", exercises.get("relu-backward").SOLUTION)["passed"]
    with pytest.raises(LayerwiseError, match="unknown exercise 'relu'"):
        exercises.prepare(["relu"])


def test_a_lab_without_its_figure_and_an_exercise_without_a_reference(monkeypatch):
    name = broken(monkeypatch, "no_figure", LAB=True, reference=None)
    with pytest.raises(LayerwiseError) as error:
        exercises.validate(name)
    assert str(error.value) == ("exercise 'no_figure': the module must define reference(...); the module must define "
                                "figure(...)")


def test_a_module_without_starter_whose_solution_cannot_give_one_is_told_what_the_default_needs(monkeypatch):
    name = broken(monkeypatch, "no_starter", SOLUTION="def layer_norm(x):\n    return x\n")
    delattr(exercises.get(name), "STARTER")
    with pytest.raises(LayerwiseError) as error:
        exercises.validate(name)
    assert str(error.value) == ("exercise 'no_starter': the module must define STARTER (str; left out, it comes from "
                                "a SOLUTION that parses and defines FUNCTION (KIND 'write') or from MISTAKES[0] "
                                "(KIND 'fix'))")


def test_get_gives_a_write_module_without_starter_none_when_its_solution_lacks_the_function():
    module = types.ModuleType("engine.exercises.scratch")
    module.KIND, module.FUNCTION, module.SOLUTION = "write", "f", "def g(x):\n    return x\n"
    exercises._give_default_starter(module)
    assert not hasattr(module, "STARTER")
    module.SOLUTION = 'def f(x):\n    """Return x."""\n    return x\n'
    exercises._give_default_starter(module)
    assert module.STARTER == 'def f(x):\n    """Return x."""\n    # your code here\n'
