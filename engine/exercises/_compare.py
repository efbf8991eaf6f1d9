"""The checks on one call's result, each saying in one sentence what it found: what came back (None, how many
values, numbers), then per output its shape, dtype and values, then whether the inputs were changed in place."""
import numpy as np

from . import _cells


class Stop(Exception):
    """The first failing check: carries the failure record and, when the learner's code raised, the error."""

    def __init__(self, message, inputs=None, comparison=(None, None, None, ()), hint=None, error=None):
        super().__init__(message)
        expected, got, wrong, _ = comparison
        self.failure = {"message": message, "inputs": inputs or [], "expected": expected, "got": got,
                        "wrong": wrong, "hint": hint}
        self.error = error


def shown(case, lead=()):
    """The case's inputs as the feedback shows them (the matrix at ``lead`` of those with more than two axes): made
    afresh, as the learner's function may have written into the ones it was given."""
    return [_cells.named(name, value, lead=lead) for name, value in case.make().items()]


def returned_arrays(exercise, returned, case):
    """The learner's return value (a ``_learner.Returned``) as a tuple of arrays, or stop saying what came back."""
    names, value = exercise.OUTPUTS, returned.value
    listed = ", ".join(f"`{n}`" for n in names)
    if value is None:
        raise Stop(f"`{exercise.FUNCTION}` returned None; did you forget a `return`? It should return {listed}.",
                   shown(case))
    if len(names) == 1:
        if returned.parts is not None and len(returned.parts) != 0 and returned.whole is None:
            raise Stop(f"`{exercise.FUNCTION}` returned {describe(value)}; it should return one array, {listed}.",
                       shown(case))
        arrays = (returned.whole,)
    elif returned.parts is None or len(returned.parts) != len(names):
        raise Stop(f"`{exercise.FUNCTION}` should return {len(names)} values ({listed}), but it returned "
                   f"{describe(value)}.", shown(case))
    else:
        arrays = returned.parts
    for name, array, item in zip(names, arrays, returned.parts or (value,)):
        if array is None:
            raise Stop(f"`{name}` should be a NumPy array of numbers, but it is {describe(item)}.", shown(case))
    return arrays


def describe(value):
    if value is None:
        return "None"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)} values"
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return f"a value of type {type(value).__name__}"


def difference(case, name, want, have):
    """The sentence saying how ``have`` differs from ``want`` (shape, then dtype, then values), or None."""
    if have.shape != want.shape:
        return f"On {case.label}, `{name}` has shape {have.shape} but should have shape {want.shape}."
    if not same_kind(have, want):
        return f"On {case.label}, `{name}` has dtype {have.dtype} but should have dtype {want.dtype}."
    wrong = int((~_cells.close(have, want)).sum())
    if not wrong:
        return None
    if want.ndim == 0:  # one number: say both, with the digits that tell them apart
        expected, got, _, _ = _cells.comparison(name, want, have)
        return f"On {case.label}, `{name}` is {got['cells'][0][0]} but should be {expected['cells'][0][0]}."
    return f"On {case.label}, `{name}` is wrong in {wrong} of {want.size} entries."


def same_kind(have, want):
    """Floats must match exactly (float32 is a real mistake); any integer width will do for integers, and a single
    number may be a Python int where a float is expected (``return 0`` where a statement says "return 0")."""
    if want.dtype.kind in "iu":
        return have.dtype.kind in "iu"
    if want.ndim == 0 and have.ndim == 0 and want.dtype.kind == "f" and have.dtype.kind in "iu":
        return True
    return have.dtype == want.dtype


def agrees(have, want):
    """Same shape and every entry close (the tolerance of the value check)."""
    return have.shape == want.shape and same_kind(have, want) and bool(_cells.close(have, want).all())


def copies(inputs):
    """Copies of the array inputs, to find out afterwards whether the function wrote into them."""
    return {name: value.copy() for name, value in inputs.items() if isinstance(value, np.ndarray)}


def changed_input(inputs, before, allowed):
    """The name of the first array input the call changed in place (not in ``allowed``), or None. Round-off of an
    entry nudged and put back (``x[i] += h`` then ``-= h``) is no change: the value check's tolerance applies."""
    for name, original in before.items():
        value = inputs[name]
        if name not in allowed and not (value.dtype == original.dtype and agrees(value, original)):
            return name
    return None
