"""Programs a learner might write, one module per family of exercises: correct ones unlike the solution (other
styles, and public implementations adapted to the exercise, credited where they come from) that must pass, and
wrong ones beyond the exercises' known mistakes that must fail with the message given, word for word.

A wrong program's ``message`` was worked out from the case it should fail on (the first case the bug changes, in
the exercise's order) and the check that catches it; ``hint`` is the known mistake's hint it must show, or None
when no known mistake gives the learner's output there.
"""
import importlib
from typing import NamedTuple

FAMILIES = ("embedding", "linear", "activations", "softmax", "attention", "norms", "residual", "dropout", "init",
            "loss", "model", "training", "gradcheck", "modern")


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
