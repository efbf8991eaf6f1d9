"""The model's functions grouped by where they sit in the model, for the page's table: read from the swap registry
(``layers.LAYERS`` and ``layers.PLAIN``), so a function added there is listed without touching this module.

An entry's part comes from the engine module its function lives in (``engine.norms`` -> norms); ``BY_NAME``
overrides that where the module says less than the name (the MLP sub-layer lives in ``engine.model``). Every
backward is listed under "backward", after the forward passes.
"""
from typing import NamedTuple

from .layers import LAYERS, PLAIN

# (key, heading), in the order the model runs them
PARTS = (("embedding", "Embedding"), ("attention", "Blocks: attention"), ("mlp", "Blocks: MLP"),
         ("norms", "Blocks: norms"), ("residual", "Blocks: residual"), ("head", "Head and loss"),
         ("backward", "Backward"), ("initialisation", "Initialisation"), ("optimiser", "Optimiser"),
         ("sampler", "Sampler"))
BY_MODULE = {"engine.embedding": "embedding", "engine.attention": "attention", "engine.linear": "attention",
             "engine.activations": "mlp", "engine.norms": "norms", "engine.residual": "residual",
             "engine.model": "residual", "engine.loss": "head", "engine.init": "initialisation",
             "engine.optim": "optimiser", "engine.generate": "sampler", "engine.kv_cache": "sampler"}
BY_NAME = {"feed-forward sublayer": "mlp", "learning-rate schedule": "optimiser"}
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
    return BY_NAME.get(name) or BY_MODULE.get(function.__module__, "residual")


def parts():
    """``[(key, heading, [Row, ...])]`` for every part in ``PARTS`` (a part may have no rows)."""
    found = {key: [] for key, _ in PARTS}
    for layer in LAYERS:
        found[part_of(layer.name, layer.forward)].append(Row(layer.forward.__name__, f"{layer.name}, forward",
                                                             layer.exercise_forward))
        if layer.backward is not None:
            found["backward"].append(Row(layer.backward.__name__, f"{layer.name}, backward", layer.exercise_backward))
    for plain in PLAIN:
        found[part_of(plain.name, plain.engine)].append(Row(plain.engine.__name__, plain.name, plain.exercise))
    return [(key, heading, found[key]) for key, heading in PARTS]
