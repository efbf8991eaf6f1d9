"""What every case should give, and what every known mistake gives there: computed once per process, before any
learner code has run, from references and mistakes bound when the exercise module was imported."""
from typing import NamedTuple

import numpy as np

_prepared = {}  # exercise module name -> [Prepared], one per case


class Prepared(NamedTuple):
    case: object                  # the Case
    expected: tuple               # the reference's outputs, one array per name in OUTPUTS
    mistakes: tuple               # per known mistake: its outputs on this case, or None when it raises here


def prepared(exercise):
    key = exercise.__name__
    if key not in _prepared:
        wrong = [_mistake_function(exercise, mistake) for mistake in getattr(exercise, "MISTAKES", ())]
        _prepared[key] = [Prepared(case, outputs(exercise, exercise.reference(*case.make().values())),
                                   tuple(_mistake_outputs(exercise, function, case) for function in wrong))
                          for case in exercise.CASES]
    return _prepared[key]


def outputs(exercise, value):
    """A return value as a tuple of arrays (or dicts of arrays), one per name in ``OUTPUTS``."""
    values = value if len(exercise.OUTPUTS) > 1 else (value,)
    return tuple({key: np.asarray(item) for key, item in v.items()} if isinstance(v, dict) else np.asarray(v)
                 for v in values)


def _mistake_outputs(exercise, function, case):
    with np.errstate(all="ignore"):
        try:
            return outputs(exercise, function(*case.make().values()))
        except Exception:  # noqa: BLE001 - a mistake may fail on some case; no hint can come from there
            return None


def _mistake_function(exercise, mistake):
    namespace = {"np": np, "__name__": "__mistake__"}
    exec(compile(mistake.source(exercise.SOLUTION), f"<mistake {mistake.name}>", "exec"), namespace)
    return namespace[exercise.FUNCTION]
