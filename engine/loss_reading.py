"""Reading a loss: what a cross-entropy in nats means, what this corpus allows, and where memorising begins.

The Training page turns a loss into units a reader can picture (perplexity, bits per character), marks the two
losses every run passes on the way down (a uniform guess, and knowing only how common each character is), and
shows a run on a small slice of the corpus long enough to overfit. That run is cached: the build evaluates many
inline values from it, and training it once costs a few seconds.
"""
import io
import math
from collections import Counter
from functools import lru_cache

from .config import GPTConfig
from .data import load_corpus
from .train import TrainSettings, train


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
OVERFIT_SETTINGS = TrainSettings(steps=400, batch_size=16, lr=0.01, warmup_steps=20, eval_every=50, eval_batches=8,
                                 checkpoint_every=10**6, seed=0)


@lru_cache(maxsize=1)
def overfitting_run():
    """``[(step, mean training loss over the steps since the last evaluation, validation loss), ...]``."""
    result = train(OVERFIT_CONFIG, load_corpus()[:OVERFIT_CHARACTERS], OVERFIT_SETTINGS, out=io.StringIO())
    train_loss, every = result.history["train_loss"], OVERFIT_SETTINGS.eval_every
    return tuple((step, sum(train_loss[step - every:step]) / every, val)
                 for step, val in result.history["val_loss"])


def best_validation_step():
    """The step of the overfitting run at which the validation loss was lowest: where memorising starts to cost."""
    return min(overfitting_run(), key=lambda row: row[2])[0]
