"""Learner programs against the grader: every correct one passes, every wrong one fails with its own message."""
import collections

import pytest
from learner_programs import Correct, Wrong, programs

from engine import exercises

CORRECT = programs(Correct)
WRONG = programs(Wrong)


@pytest.mark.parametrize("program", CORRECT, ids=[f"{p.exercise}:{p.name}" for p in CORRECT])
def test_a_correct_program_passes(program):
    result = exercises.grade(program.exercise, program.source)
    assert result["failure"] is None, result["failure"]["message"]
    assert result["passed"] and result["error"] is None


@pytest.mark.parametrize("program", WRONG, ids=[f"{p.exercise}:{p.name}" for p in WRONG])
def test_a_wrong_program_fails_with_its_message(program):
    result = exercises.grade(program.exercise, program.source)
    assert not result["passed"]
    assert result["failure"]["message"] == program.message
    assert result["failure"]["hint"] == program.hint


def test_every_exercise_has_three_correct_and_three_wrong_programs():
    correct = collections.Counter(p.exercise for p in CORRECT)
    wrong = collections.Counter(p.exercise for p in WRONG)
    short = {i: f"{correct[i]} correct, {wrong[i]} wrong" for i in exercises.ids() if min(correct[i], wrong[i]) < 3}
    assert not short, (
        f"exercises with fewer than three correct and three wrong learner programs: {short}. Add them to a module "
        f"of tests/exercises/learner_programs/ (any module defining PROGRAMS is found): Correct(exercise, name, "
        f"source) must pass; Wrong(exercise, name, source, message, hint) must fail with `message`, the grader's "
        f"sentence word for word, and show `hint` (a known mistake's hint, or None)")


def test_no_wrong_program_is_a_known_mistake():
    for program in WRONG:
        exercise = exercises.get(program.exercise)
        assert program.source not in [mistake.source(exercise.SOLUTION) for mistake in exercise.MISTAKES]
