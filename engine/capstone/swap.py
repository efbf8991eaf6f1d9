"""The engine's own model with some of its functions replaced by the learner's, for the length of a ``with``.

``swapped({exercise id: learner function})`` binds an adapter for every function in ``layers.LAYERS`` and
``layers.PLAIN`` at the module attributes the model looks them up by (``engine.model.layernorm_forward``,
``engine.activations.ACTIVATIONS["gelu"]``, ...) and puts the engine's back on exit. The engine's functions go
through the same adapters, so an all-engine run is the engine's run, bit for bit. The widgets' worker never enters
this: the swap happens only in the practice worker, between its grading requests.
"""
import contextlib
import copy
from typing import NamedTuple

import numpy as np

from .. import exercises, model
from ..errors import LayerwiseError
from ..exercises._spec import parameters
from .layers import LAYERS, PLAIN, engine_in_place


_active = []  # the context of the swap in force: the views find the block's index through it


class LearnerFailure(Exception):
    """A learner's function raised inside the model: which one, where, and the shapes it was given."""

    def __init__(self, function, where, shapes, error):
        self.function, self.where, self.shapes, self.error = function, where, shapes, error
        kind = type(error).__name__
        detail = f": {error}" if str(error) else ""
        place = where if where.startswith("outside") else f"in {where}"
        super().__init__(f"your {function} raised {kind}{detail} {place}, given {shapes}")


class Call(NamedTuple):
    """One call of a learner's function inside the model, as the assembly check replays it."""
    exercise: str
    where: str
    args: tuple  # the learner function's arguments, copied before the call
    output: object


class _Cache(NamedTuple):
    args: tuple  # the engine call's arguments
    engine: object  # the engine forward's cache; None when the learner's forward ran


def argument_names(exercise_id):
    """The names of the learner function's arguments, read from the exercise's solution."""
    exercise = exercises.get(exercise_id)
    return parameters(exercise.SOLUTION, exercise.FUNCTION)


def describe(exercise_id, args):
    """``x (8, 16, 32), gamma (32,), eps 1e-05, params (8 arrays)``: what a function was given."""
    return ", ".join(f"{name} {_given(value)}" for name, value in zip(argument_names(exercise_id), args))


def _given(value):
    if isinstance(value, (np.ndarray, list)):
        return str(np.shape(value))
    if isinstance(value, dict):  # an optimiser's parameters or one attention's weights: too many to print
        return f"({len(value)} arrays)"
    if isinstance(value, np.random.Generator):
        return "(a random generator)"
    return repr(value)


class Context:
    """Where the model is (which block) and, for the check, the record of every learner call."""

    def __init__(self, functions, recorder=None):
        self.functions = functions
        self.recorder = recorder
        self.block = None
        self.params = {}
        self.param_names = {}  # id(array) -> parameter name, so a call can say which parameters it was given
        self.counts = {}  # exercise id -> calls of the learner's function so far, so a page can say what ran

    def name_params(self, params):
        self.params = params
        self.param_names = {id(array): name for name, array in params.items()}

    def block_of(self, wq):
        """The index of the block whose query weights equal ``wq`` (a learner's model backward hands each block its
        slice of stacked parameters, new arrays holding the same numbers); 0 when none does."""
        for name, array in self.params.items():
            if name.endswith(".wq") and np.shape(array) == np.shape(wq) and np.array_equal(array, wq):
                return int(name[1:name.index(".")])
        return 0

    def where(self, args):
        place = f"block {self.block}" if self.block is not None else "outside the blocks"
        names = [self.param_names[id(a)] for a in args if id(a) in self.param_names]
        return place + (f" (parameters {', '.join(names)})" if names else "")

    def call(self, exercise_id, args, run, convert=None):
        """``run(*args)`` is the learner's code for ``exercise_id``: wrap what it raises, record what it returns;
        ``convert`` turns that into what the engine's function returns (a failure there is the learner's too)."""
        self.counts[exercise_id] = self.counts.get(exercise_id, 0) + 1
        record = copy.deepcopy(args) if self.recorder is not None else None
        try:
            out = run(*args)
        except LearnerFailure:
            raise
        except (Exception, SystemExit) as error:
            raise LearnerFailure(exercises.get(exercise_id).FUNCTION, self.where(args), describe(exercise_id, args),
                                 error) from None
        if self.recorder is not None:
            self.recorder.append(Call(exercise_id, self.where(args), record, copy.deepcopy(out)))
        if convert is None:
            return out
        try:
            return convert(out)
        except Exception as error:  # noqa: BLE001 - what the learner returned does not fit the engine's shape
            raise LearnerFailure(exercises.get(exercise_id).FUNCTION, self.where(args), describe(exercise_id, args),
                                 error) from None


def _layer_adapters(layer, context):
    learner_forward = context.functions.get(layer.exercise_forward)
    learner_backward = context.functions.get(layer.exercise_backward)

    def forward(*args):
        if learner_forward is None:
            out, cache = layer.forward(*args)
            return out, _Cache(args, cache)
        return context.call(layer.exercise_forward, layer.arguments(*args), learner_forward), _Cache(args, None)

    def backward(dout, cache):
        if learner_backward is None:  # the engine's backward needs the engine's cache: made now if yours ran
            return layer.backward(dout, cache.engine if cache.engine is not None else layer.forward(*cache.args)[1])
        args = layer.arguments(*cache.args)
        if layer.upstream_first:
            return context.call(layer.exercise_backward, (dout, *args), learner_backward,
                                lambda out: layer.results(out, *cache.args))
        return dout * context.call(layer.exercise_backward, args, learner_backward)

    return forward, backward


def views():
    """{name: function} for every layer the exercises hand to a learner's composition by name (``Layer.names``):
    the learner's signature, calling whatever the model holds at that moment (inside ``swapped``, yours where you
    passed it). Build your GPT defines a composition exercise's GIVEN names with these."""
    found = {}
    for layer in LAYERS:
        if layer.names:
            found[layer.names[0]], found[layer.names[1]] = _forward_view(layer), _backward_view(layer)
    return found


def _context():
    return _active[-1] if _active else Context({})


def _forward_view(layer):
    home = layer.homes[0]

    def view(*args):
        return home.current()[0](*layer.engine_arguments(_context(), *args))[0]
    return view


def _backward_view(layer):
    home = layer.homes[0]

    def view(dout, *args):
        engine_args = layer.engine_arguments(_context(), *args)
        backward = home.current()[1]
        cache = layer.forward(*engine_args)[1] if backward is layer.backward else _Cache(engine_args, None)
        return layer.learner_results(backward(dout, cache), *engine_args)
    return view


def _plain_adapter(plain, context):
    learner = context.functions.get(plain.exercise)
    if learner is None:
        return plain.engine
    return lambda *args, **kwargs: plain.call(lambda *a: context.call(plain.exercise, a, learner), plain.engine,
                                              *args, **kwargs)


def _in_block(context, block_forward, block_backward):
    """Block i's adapters, telling the context which block it is in while they run."""
    def inside(block, run, *args):
        outer, context.block = context.block, block
        try:
            return run(*args)
        finally:
            context.block = outer

    def forward(x, params, i, config, rng=None):
        return inside(i, block_forward, x, params, i, config, rng)

    def backward(dx, cache):
        return inside(cache.args[2], block_backward, dx, cache)

    return forward, backward


@contextlib.contextmanager
def swapped(functions, recorder=None):
    """Run the model with ``functions`` ({exercise id: learner function}) in place of the engine's; yields the
    ``Context`` (``context.name_params(params)`` lets messages name parameters). ``recorder``: a list that gets a
    ``Call`` for every learner call."""
    unknown = sorted(set(functions) - {layer.exercise_forward for layer in LAYERS}
                     - {layer.exercise_backward for layer in LAYERS} - {plain.exercise for plain in PLAIN})
    if unknown:
        raise LayerwiseError(f"swapped: the model calls no function of the exercises {', '.join(unknown)}")
    misplaced = engine_in_place()
    if misplaced:
        raise LayerwiseError(f"swapped: {', '.join(misplaced)} is not the engine's function (already swapped?)")
    context = Context(functions, recorder)
    bindings = []
    for layer in LAYERS:
        forward, backward = _layer_adapters(layer, context)
        if layer.forward is model.block_forward:
            forward, backward = _in_block(context, forward, backward)
        for home in layer.homes:
            bindings.extend(home.values(forward, backward))
    for plain in PLAIN:
        adapter = _plain_adapter(plain, context)
        for home in plain.homes:
            bindings.extend(home.values(adapter, None))
    saved = [(module, name, getattr(module, name)) for module, name, _ in bindings]
    try:
        for module, name, value in bindings:
            setattr(module, name, value)
        _active.append(context)
        yield context
    finally:
        if _active and _active[-1] is context:
            _active.pop()
        for module, name, value in reversed(saved):
            setattr(module, name, value)
