"""The engine's own training curves for every setting the page offers, computed at build time: the page draws the
learner's curve over the one with the same settings and configuration, and shows the default one (and its sample)
without JavaScript.
"""
import io
import itertools
from functools import lru_cache

from . import PRESETS, SAMPLE, choices, config, settings
from ..data import load_corpus
from ..generate import generate_text
from ..train import train


def key(steps, lr, seed, preset="gpt2"):
    """The name of a setting, as the page's JavaScript spells it: ``200-0.003-0`` (GPT-2's model), or with the
    preset after it, ``200-0.003-0-modern``."""
    return f"{steps}-{lr!r}-{seed}" + ("" if preset == "gpt2" else f"-{preset}")


@lru_cache(maxsize=None)  # the build draws every curve and its page quotes the default one: train each once
def curve(steps, lr, seed, preset="gpt2"):
    """{train: loss per step, val: [[step, loss]], sample: the text the trained model continues SAMPLE's prompt with}
    (cached: read it, do not change it)"""
    result = train(config(preset), load_corpus(), settings(steps, lr, seed, preset), out=io.StringIO())
    sample = generate_text(result.params, result.config, result.vocab, SAMPLE["prompt"], SAMPLE["tokens"], seed=seed,
                           temperature=SAMPLE["temperature"], top_k=SAMPLE["top_k"])
    return {"train": [float(x) for x in result.history["train_loss"]],
            "val": [[step, float(x)] for step, x in result.history["val_loss"]], "sample": sample}


def offered():
    """Every (steps, lr, seed, preset) the page offers."""
    return [(*setting, preset) for preset in PRESETS for setting in itertools.product(*choices(preset).values())]


def curves():
    """Every offered setting's curve, by ``key``."""
    return {key(*setting): curve(*setting) for setting in offered()}
