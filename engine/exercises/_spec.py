"""The records an exercise module declares: its test cases, its known mistakes, its gradient check.

Records are NamedTuples for the same reason as the widget kinds': ``dataclasses`` costs the browser worker's start.
Every case *makes* its inputs when asked, so each call (the reference, the learner's function, a known mistake)
gets fresh arrays and a fresh random generator: a function that writes into its input cannot disturb the next one.
"""
import ast
from typing import Callable, NamedTuple

import numpy as np


class Case(NamedTuple):
    """One input the learner's function is called with; ``label`` completes "On ..., y is wrong"."""
    label: str
    make: Callable[[], dict]   # () -> {argument name: value}, in the order of the function's parameters


class Mistake(NamedTuple):
    """A typical wrong answer: SOLUTION with ``old`` replaced by ``new`` (exactly one occurrence of ``old``).

    When a learner's wrong output equals this variant's on the failing case, the feedback shows ``hint``.
    """
    name: str
    old: str
    new: str
    hint: str

    def source(self, solution):
        return solution.replace(self.old, self.new)


class Gradcheck(NamedTuple):
    """Check a backward against central differences of the learner's own ``forward`` (given in the starter).

    The scalar is ``sum(forward(*args) * upstream)``; the backward's outputs are the gradients of ``wrt``, in order.
    """
    forward: str                # the forward's name in the learner's code
    args: tuple[str, ...]       # case inputs passed to it, in order
    wrt: tuple[str | None, ...]  # the inputs whose gradients the backward returns, in its order (None: not
                                 # checked, for a gradient that is 0 up to round-off whatever the input)
    upstream: str | None        # the case input holding the upstream gradient; None for a scalar loss


def _as_input(value):
    """A fresh input: literal lists become float64 arrays, arrays are copied, a dict (an optimiser's parameters) is
    made afresh entry by entry; numbers and other objects pass through."""
    if isinstance(value, list):
        return np.array(value, dtype=np.float64)
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        return {key: _as_input(item) for key, item in value.items()}
    return value


def case(label, **inputs):
    """A fixed case written out by hand: lists are float arrays (write integer ids as ``np.array([...])``), dicts
    hold such values."""
    def make():
        return {name: _as_input(value) for name, value in inputs.items()}
    return Case(label, make)


def random_case(label, seed, **draws):
    """A seeded random case: each value is a function ``rng -> value`` (see :func:`normal`), a constant, or a dict
    of those (drawn in the dict's order)."""
    def make():
        rng = np.random.default_rng(seed)
        return {name: _drawn(draw, rng) for name, draw in draws.items()}
    return Case(label, make)


def _drawn(draw, rng):
    if isinstance(draw, dict):
        return {key: _drawn(item, rng) for key, item in draw.items()}
    return draw(rng) if callable(draw) else _as_input(draw)


def normal(*shape, scale=1.0):
    """A draw of standard normal values times ``scale``, for :func:`random_case` (an array even for ``shape == ()``:
    NumPy's 0-d arithmetic returns a scalar, which a function scaling its input in place could not change)."""
    return lambda rng: np.asarray(scale * rng.standard_normal(shape))


def integers(high, *shape):
    """A draw of integer ids in ``[0, high)``, for :func:`random_case`."""
    return lambda rng: rng.integers(0, high, size=shape)


def generator():
    """The case's own seeded ``numpy.random.Generator`` as an input, for functions that draw random numbers."""
    return lambda rng: rng


def starter(solution, function):
    """The usual starter of a "write" exercise: SOLUTION with ``function``'s body after its docstring replaced by
    ``# your code here`` (any other function in SOLUTION, such as a given forward, stays as it is)."""
    node = _definition(solution, function)
    first = node.body[0]
    has_docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    keep = first.end_lineno if has_docstring else first.lineno - 1
    lines = solution.splitlines(keepends=True)
    return "".join(lines[:keep]) + " " * first.col_offset + "# your code here\n" + "".join(lines[node.end_lineno:])


def parameters(solution, function):
    """The names of ``function``'s parameters in SOLUTION, in order (what each case's inputs are passed as)."""
    return tuple(argument.arg for argument in _definition(solution, function).args.args)


def _definition(source, function):
    return next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == function)


def first_output(forward):
    """The reference of a forward exercise: the engine's ``forward`` called with the case's inputs, its cache
    dropped (``reference = first_output(_layernorm_forward)``)."""
    def reference(*inputs):
        return forward(*inputs)[0]
    return reference


def through_cache(backward, forward):
    """The reference of a backward exercise called as ``(upstream, *forward's inputs)``: the engine's ``backward``
    given the upstream gradient and the cache of the engine's ``forward``
    (``reference = through_cache(_layernorm_backward, _layernorm_forward)``)."""
    def reference(upstream, *inputs):
        return backward(upstream, forward(*inputs)[1])
    return reference
