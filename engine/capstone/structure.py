"""The model's functions grouped by where they sit in the model, for the page's table: read from the swap registry
(``layers.LAYERS`` and ``layers.PLAIN``), so a function added there is listed without touching this module.

An entry's part comes from the engine module its function lives in (``engine.norms`` -> norms); ``BY_NAME``
overrides that where the module says less than the name (the MLP sub-layer lives in ``engine.model``). Every
backward is listed under "backward", after the forward passes. ``unplaced()`` names entries of a module not in
``BY_MODULE`` (a test keeps it empty).
"""
from typing import NamedTuple

from .layers import LAYERS, PLAIN
from .switches import calls

# (key, heading), in the order the model runs them
PARTS = (("embedding", "Embedding"), ("attention", "Blocks: attention"), ("mlp", "Blocks: MLP"),
         ("norms", "Blocks: norms"), ("residual", "Blocks: residual"), ("head", "Head and loss"),
         ("backward", "Backward"), ("initialisation", "Initialisation"), ("optimiser", "Optimiser"),
         ("sampler", "Sampler"))
BY_MODULE = {"embedding": "embedding", "attention": "attention", "softmax": "attention", "linear": "attention",
             "activations": "mlp", "norms": "norms", "residual": "residual", "model": "residual", "loss": "head",
             "init": "initialisation", "optim": "optimiser", "generate": "sampler", "kv_cache": "sampler",
             "rope": "attention", "swiglu": "mlp"}
BY_NAME = {"feed-forward sublayer": "mlp", "learning-rate schedule": "optimiser",
           "rotary positions, backward": "backward"}
# What stays the engine's whoever writes the functions above: the page lists it under the table.
ENGINE_ONLY = (
    "data loading: the vocabulary, encoding the text and the random windows of every batch (engine.data)",
    "the loop: train_step's order of calls, gradient clipping and the validation loss (engine.train), and "
    "generation's loop around the sampler (engine.generate)",
)


class Row(NamedTuple):
    engine_function: str  # the engine's function's name, shown where no exercise writes it
    role: str
    exercise: str | None  # the exercise whose function replaces it, or None


def part_of(name, function):
    """The part of the entry ``name`` whose engine function is ``function`` (None: its module is not in BY_MODULE)."""
    return BY_NAME.get(name) or BY_MODULE.get(function.__module__.rpartition(".")[2])


def unplaced():
    """Names of the registry's entries that no part claims (a new engine module to add to BY_MODULE)."""
    entries = [(layer.name, layer.forward) for layer in LAYERS] + [(plain.name, plain.engine) for plain in PLAIN]
    return [name for name, function in entries if part_of(name, function) is None]


def _exercises(exercise, entry, configs):
    """What the row of ``entry``'s function ``exercise`` shows under each of ``configs``, each once: the exercise
    where its function runs, None (the engine's, no exercise) where only the engine's does; nothing where neither."""
    found = []
    for config in configs:
        engine_needs = entry.needs if entry.engine_needs is None else entry.engine_needs
        shown = exercise if calls(entry.needs, config) else None if calls(engine_needs, config) else False
        if shown is not False and shown not in found:
            found.append(shown)
    return found


def parts(config=None):
    """``[(key, heading, [Row, ...])]`` for every part in ``PARTS`` (a part may have no rows): the functions the model
    ``config`` calls, or those of every configuration the page offers (a composition written for GPT-2's model then
    has two rows: the exercise's, and the engine's that the other configurations call)."""
    from . import PRESETS, config as preset_config
    configs = [config] if config is not None else [preset_config(name) for name in PRESETS]
    found = {key: [] for key, _ in PARTS}
    found[None] = []  # unplaced entries are listed last, under the residual part's heading (see unplaced())
    for layer in LAYERS:
        for exercise in _exercises(layer.exercise_forward, layer, configs):
            found[part_of(layer.name, layer.forward)].append(Row(layer.forward.__name__, f"{layer.name}, forward",
                                                                 exercise))
        if layer.backward is not None:
            for exercise in _exercises(layer.exercise_backward, layer, configs):
                found["backward"].append(Row(layer.backward.__name__, f"{layer.name}, backward", exercise))
    for plain in PLAIN:
        for exercise in _exercises(plain.exercise, plain, configs):
            found[part_of(plain.name, plain.engine)].append(Row(plain.engine.__name__, plain.name, exercise))
    found["residual"] += found.pop(None)
    return [(key, heading, found[key]) for key, heading in PARTS]
