"""The engine's own training curves for every setting the page offers, computed at build time: the page draws the
learner's curve over the one with the same settings, and shows the default one (and its sample) without JavaScript.
"""
import io
import itertools
from functools import lru_cache

from . import CHOICES, CONFIG, SAMPLE, settings
from ..data import load_corpus
from ..generate import generate_text
from ..train import train


def key(steps, lr, seed):
    """The name of a setting, as the page's JavaScript spells it: ``200-0.003-0``."""
    return f"{steps}-{lr!r}-{seed}"


@lru_cache(maxsize=None)  # the build draws every curve and its page quotes the default one: train each once
def curve(steps, lr, seed):
    """{train: loss per step, val: [[step, loss]], sample: the text the trained model continues SAMPLE's prompt with}
    (cached: read it, do not change it)"""
    result = train(CONFIG, load_corpus(), settings(steps, lr, seed), out=io.StringIO())
    sample = generate_text(result.params, result.config, result.vocab, SAMPLE["prompt"], SAMPLE["tokens"], seed=seed,
                           temperature=SAMPLE["temperature"], top_k=SAMPLE["top_k"])
    return {"train": [float(x) for x in result.history["train_loss"]],
            "val": [[step, float(x)] for step, x in result.history["val_loss"]], "sample": sample}


def curves():
    """Every offered setting's curve, by ``key``."""
    return {key(*choice): curve(*choice) for choice in itertools.product(*CHOICES.values())}
