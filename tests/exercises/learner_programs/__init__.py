"""Programs a learner might write, one module per family of exercises: correct ones unlike the solution (other
styles, and public implementations adapted to the exercise, credited where they come from) that must pass, and
wrong ones beyond the exercises' known mistakes that must fail with the message given, word for word.

A wrong program's ``message`` was worked out from the case it should fail on (the first case the bug changes, in
the exercise's order) and the check that catches it; ``hint`` is the known mistake's hint it must show, or None
when no known mistake gives the learner's output there.

A new family is a new module here defining ``PROGRAMS``: nothing to register, the modules are found by name.
"""
import ast
import importlib
import pkgutil
from typing import NamedTuple

from engine import exercises

FAMILIES = tuple(sorted(module.name for module in pkgutil.iter_modules(__path__) if not module.name.startswith("_")))


class Correct(NamedTuple):
    exercise: str
    name: str
    source: str


class Wrong(NamedTuple):
    exercise: str
    name: str
    source: str
    message: str
    hint: str | None = None


def given(exercise_id):
    """The functions an exercise gives the learner (SOLUTION's functions other than FUNCTION: the forward a backward
    exercise's gradient check differentiates), as source to put before a program: one copy, the exercise's own."""
    exercise = exercises.get(exercise_id)
    tree = ast.parse(exercise.SOLUTION)
    return "".join(ast.get_source_segment(exercise.SOLUTION, node) + "\n\n\n" for node in tree.body
                   if isinstance(node, ast.FunctionDef) and node.name != exercise.FUNCTION)


def changed(label, function, argument):
    """The sentence of a function that changed its input ``argument`` in place on the case ``label``."""
    return (f"On {label}, `{function}` changed its input `{argument}` in place. Leave the caller's arrays as they "
            f"were: the model still needs them after this call. Work on new arrays (`{argument} = {argument} - ...` "
            f"rather than `{argument} -= ...`).")


def refused(function, name):
    """The sentence of a function that called the engine's ``name``."""
    return f"Your `{function}` calls `{name}`: practice code is plain NumPy, so write it without `{name}`."


def programs(kind):
    """Every ``Correct`` or ``Wrong`` program of every family."""
    found = []
    for family in FAMILIES:
        module = importlib.import_module(f"{__name__}.{family}")
        found += [program for program in module.PROGRAMS if isinstance(program, kind)]
    return found
