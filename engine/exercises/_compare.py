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
    return [_cells.named(label, value, lead=lead) for name, value in case.make().items()
            for label, value in _items(name, value)]


def _items(name, value):
    """``[(name, value)]``, or for a dict of arrays (an optimiser's parameters) one ``('params["w"]', array)`` per key."""
    if isinstance(value, dict):
        return [(f'{name}["{key}"]', item) for key, item in value.items()]
    return [(name, value)]


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
        for label, entry in (_items(name, array) if isinstance(array, dict) else ()):
            if entry is None:
                raise Stop(f"`{label}` should be a NumPy array of numbers, but it is not.", shown(case))
    return arrays


def entries(case, name, want, have):
    """``(label, expected, got)`` for each array of one output: the output itself, or every entry of an output that
    is a dict of arrays, labelled ``params["w"]``, once ``have`` is a dict with exactly the expected keys."""
    if not isinstance(want, dict) and not isinstance(have, dict):
        return [(name, want, have)]
    if not isinstance(want, dict):
        raise Stop(f"On {case.label}, `{name}` should be an array, but it is a dict.", shown(case))
    keys = ", ".join(f"'{key}'" for key in want)
    if not isinstance(have, dict):
        raise Stop(f"On {case.label}, `{name}` should be a dict with the keys {keys}, but it is {describe(have)}.",
                   shown(case))
    missing, extra = [k for k in want if k not in have], [k for k in have if k not in want]
    if missing or extra:
        found = f"it lacks '{missing[0]}'" if missing else f"it also has '{extra[0]}'"
        raise Stop(f"On {case.label}, `{name}` should have the keys {keys}; {found}.", shown(case))
    return [(f'{name}["{key}"]', want[key], have[key]) for key in want]


def describe(value):
    if value is None:
        return "None"
    if isinstance(value, (tuple, list, dict)):
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
    """Floats must match exactly (float32 is a real mistake); any integer width will do for integers."""
    if want.dtype.kind in "iu":
        return have.dtype.kind in "iu"
    return have.dtype == want.dtype


def agrees(have, want):
    """Same shape and every entry close (the tolerance of the value check); dicts of arrays: the same keys, and
    every entry agrees."""
    if isinstance(have, dict) or isinstance(want, dict):
        return (isinstance(have, dict) and isinstance(want, dict) and have.keys() == want.keys()
                and all(agrees(have[key], want[key]) for key in want))
    return have.shape == want.shape and same_kind(have, want) and bool(_cells.close(have, want).all())


def copies(inputs):
    """Copies of the array inputs (and of dicts of arrays), to find out afterwards whether the function wrote into
    them."""
    found = {}
    for name, value in inputs.items():
        if isinstance(value, np.ndarray):
            found[name] = value.copy()
        elif isinstance(value, dict):
            found[name] = {key: item.copy() for key, item in value.items()}
    return found


def _unchanged(value, original):
    if isinstance(original, dict):
        return (isinstance(value, dict) and value.keys() == original.keys()
                and all(_unchanged(value[key], item) for key, item in original.items()))
    return isinstance(value, np.ndarray) and value.dtype == original.dtype and agrees(value, original)


def changed_input(inputs, before, allowed):
    """The name of the first array input (or dict of arrays) the call changed in place (not in ``allowed``), or
    None. Round-off of an entry nudged and put back (``x[i] += h`` then ``-= h``) is no change: the value check's
    tolerance applies."""
    for name, original in before.items():
        if name not in allowed and not _unchanged(inputs[name], original):
            return name
    return None
