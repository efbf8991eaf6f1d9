"""Functions an exercise hands the learner by name, so a composition exercise calls them as the learner's own.

An exercise's ``GIVEN`` lists exercise ids (that exercise's SOLUTION gives its ``FUNCTION``) and ``Given`` records
(a function written out in the module). Each source runs in a namespace of its own (``np`` and its own givens), so
a helper the learner names the same way cannot change what a given function computes; the learner's namespace, and
the known mistakes', get only the named functions. Build your GPT binds the same names to the learner's passed
functions instead (``engine.capstone.layers.GIVEN_VIEWS``).
"""
from typing import NamedTuple

import numpy as np


class Given(NamedTuple):
    """A given function that no exercise writes: ``source`` defines ``name``; ``given`` is what it calls by name."""
    name: str
    source: str
    given: tuple = ()


def entries(given):
    """Every ``Given`` (name, source, what it calls) of a GIVEN tuple, exercise ids resolved."""
    from . import get  # the package imports this module's users; resolved on use
    found = []
    for entry in given:
        if isinstance(entry, Given):
            found.append(entry)
        else:
            exercise = get(entry)
            found.append(Given(exercise.FUNCTION, exercise.SOLUTION, getattr(exercise, "GIVEN", ())))
    return found


def functions(given):
    """{name: function} for a GIVEN tuple, made afresh: learner code from an earlier grade may have changed the
    objects it was handed."""
    made = {}
    for name, source, inner in entries(given):
        namespace = {"np": np, "__name__": "__given__", **functions(inner)}
        exec(compile(source, f"<given {name}>", "exec"), namespace)
        made[name] = namespace[name]
    return made
