"""What a case should give, and what a known mistake gives there: computed when asked, after the learner's function
has returned, from inputs made afresh (nothing is kept between cases or grades, so no learner code can read an
expected output before it has answered, or change one that a later grade uses)."""
import numpy as np

from ._given import functions


def expected(exercise, case):
    """The reference's outputs on ``case``, one array per name in ``OUTPUTS``."""
    return outputs(exercise, exercise.reference(*case.make().values()))


def outputs(exercise, value):
    """A return value as a tuple of arrays (or dicts of arrays), one per name in ``OUTPUTS``."""
    values = value if len(exercise.OUTPUTS) > 1 else (value,)
    return tuple({key: np.asarray(item) for key, item in v.items()} if isinstance(v, dict) else np.asarray(v)
                 for v in values)


def mistakes(exercise, case):
    """Per known mistake, in order: ``(mistake, its outputs on case)``, the outputs None where it raises."""
    for mistake in getattr(exercise, "MISTAKES", ()):
        yield mistake, _mistake_outputs(exercise, _mistake_function(exercise, mistake), case)


def _mistake_outputs(exercise, function, case):
    with np.errstate(all="ignore"):
        try:
            return outputs(exercise, function(*case.make().values()))
        except Exception:  # noqa: BLE001 - a mistake may fail on some case; no hint can come from there
            return None


def _mistake_function(exercise, mistake):
    namespace = {"np": np, "__name__": "__mistake__", **functions(getattr(exercise, "GIVEN", ()))}
    exec(compile(mistake.source(exercise.SOLUTION), f"<mistake {mistake.name}>", "exec"), namespace)
    return namespace[exercise.FUNCTION]
