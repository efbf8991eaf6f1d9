"""Reading a loss: what a cross-entropy in nats means, what this corpus allows, and where memorising begins.

The Training page turns a loss into units a reader can picture (perplexity, bits per character), marks the two
losses every run passes on the way down (a uniform guess, and knowing only how common each character is), and
shows a run on a small slice of the corpus long enough to overfit, then the default run, which does not. Both runs
are cached: the build evaluates many inline values from them.
"""
import math
from collections import Counter
from functools import lru_cache

from .config import GPTConfig
from .data import load_corpus, split_ids
from .train import TrainRun, TrainSettings, train_step


def perplexity(loss):
    """exp(L): the number of equally likely characters that would leave the model as unsure as it is."""
    return math.exp(loss)


def bits_per_character(loss):
    """L / ln 2: the same loss in bits, the length of a code that spends -log2 p bits on each character."""
    return loss / math.log(2)


def unigram_loss(text):
    """The cross-entropy of predicting every character from its frequency in ``text`` alone, ignoring context."""
    counts = Counter(text)
    return -sum(n / len(text) * math.log(n / len(text)) for n in counts.values())


# A model far too large for its text: one block of width 24 on the corpus's first 1,500 characters, at a high rate.
OVERFIT_CONFIG = GPTConfig(seq_len=16, emb_dim=24, num_heads=2, ff_dim=48, num_layers=1)
OVERFIT_CHARACTERS = 1500
OVERFIT_SETTINGS = TrainSettings(steps=600, batch_size=16, lr=0.01, warmup_steps=20, eval_every=75, eval_batches=8,
                                 checkpoint_every=10**6, seed=0)


@lru_cache(maxsize=1)
def overfitting_run():
    """``[(step, mean training loss over the steps since the last evaluation, validation loss), ...]``.

    It learns from the corpus's first OVERFIT_CHARACTERS characters only, but is validated on the corpus's held-out
    last tenth, the validation text of every other run: a tenth of the small slice would be too few characters to
    tell a turn from noise."""
    run = TrainRun(OVERFIT_CONFIG, load_corpus(), OVERFIT_SETTINGS)  # the whole corpus's vocabulary and held-out text
    run.train_ids = run.train_ids[:OVERFIT_CHARACTERS]
    return _rows(run)


@lru_cache(maxsize=1)
def default_run():
    """The rows of ``overfitting_run`` for the default run, ``GPTConfig()`` with ``TrainSettings()`` on the whole
    corpus (``python -m engine train``; the build trains it in about half a minute)."""
    return _rows(TrainRun(GPTConfig(), load_corpus(), TrainSettings()))


def _rows(run):
    """Train ``run`` to its end: ``[(step, mean training loss since the last evaluation, validation loss), ...]``."""
    while not run.done:
        train_step(run)
    train_loss, every = run.history["train_loss"], run.settings.eval_every
    return tuple((step, sum(train_loss[step - every:step]) / every, val) for step, val in run.history["val_loss"])


def held_out_characters():
    """How many characters the overfitting run (and every other run on the corpus) is validated on."""
    return len(split_ids(range(len(load_corpus())))[1])


def best_validation_step():
    """The step of the overfitting run at which the validation loss was lowest: where memorising starts to cost."""
    return min(overfitting_run(), key=lambda row: row[2])[0]
