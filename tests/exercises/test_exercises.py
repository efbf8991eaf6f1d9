"""Every exercise against its own solution, starter and known mistakes, as the build's validation sees them."""
import ast
import json

import pytest

from engine import exercises

IDS = exercises.ids()
MISTAKES = [(exercise_id, mistake) for exercise_id in IDS for mistake in exercises.get(exercise_id).MISTAKES]


def test_ids_are_unique_and_grouped_by_page_then_order():
    assert len(IDS) >= 30 and len(set(IDS)) == len(IDS)
    keys = [(exercises.get(exercise_id).PAGE, exercises.get(exercise_id).ORDER) for exercise_id in IDS]
    assert keys == sorted(keys)


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_solution_passes_every_check(exercise_id):
    result = exercises.grade(exercise_id, exercises.get(exercise_id).SOLUTION)
    assert result["passed"], result["failure"]
    assert result["failure"] is None and result["error"] is None
    assert all(check["passed"] for check in result["checks"]) and len(result["checks"]) >= 3


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_starter_fails_without_crashing_the_grader(exercise_id):
    exercise = exercises.get(exercise_id)
    result = exercises.grade(exercise_id, exercise.STARTER)
    assert not result["passed"]
    assert result["checks"][-1]["passed"] is False
    assert result["failure"]["message"].endswith((".", "?"))
    ast.parse(exercise.STARTER)
    if exercise.KIND == "write":
        listed = ", ".join(f"`{name}`" for name in exercise.OUTPUTS)
        assert result["failure"]["message"] == (f"`{exercise.FUNCTION}` returned None; did you forget a `return`? "
                                                f"It should return {listed}.")


@pytest.mark.parametrize("exercise_id", [i for i in IDS if exercises.get(i).KIND == "fix"])
def test_a_fix_the_bug_starter_is_a_known_mistake_and_shows_its_hint(exercise_id):
    exercise = exercises.get(exercise_id)
    hints = [mistake.hint for mistake in exercise.MISTAKES]
    assert exercises.grade(exercise_id, exercise.STARTER)["failure"]["hint"] in hints


@pytest.mark.parametrize("exercise_id, mistake", MISTAKES, ids=[f"{i}:{m.name}" for i, m in MISTAKES])
def test_every_known_mistake_fails_with_its_own_hint(exercise_id, mistake):
    solution = exercises.get(exercise_id).SOLUTION
    assert solution.count(mistake.old) == 1
    result = exercises.grade(exercise_id, mistake.source(solution))
    assert not result["passed"]
    assert result["failure"]["hint"] == mistake.hint


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_build_validation_accepts_every_exercise(exercise_id):
    assert exercises.validate(exercise_id, page="layers/x.md") is exercises.get(exercise_id)


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_exercise_has_the_fields_the_browser_reads(exercise_id):
    exercise = exercises.get(exercise_id)
    assert exercise.TITLE and exercise.STATEMENT and exercise.HINTS and exercise.KIND in ("write", "fix")
    assert all(isinstance(hint, str) and hint for hint in exercise.HINTS)


def test_grade_json_is_the_same_result_as_strict_json():
    softmax = exercises.get("softmax-forward")
    naive = "# seed: 5\n" + softmax.MISTAKES[0].source(softmax.SOLUTION)  # exp overflows: nan in the output
    text = exercises.grade_json("softmax-forward", naive)
    result = json.loads(text)
    assert result == exercises.grade("softmax-forward", naive) and result["seed"] == 5
    assert "nan" in json.dumps(result["failure"]["got"]["cells"])  # non-finite values arrive as text, never NaN
