"""How good a character model is, in the units people quote: mean cross-entropy on held-out text, perplexity, bits
per character, and two baselines to read them against (a uniform guess and a character-frequency model).

The held-out loss reads the whole validation split once, in consecutive windows of ``seq_len`` (every target
counted once, each predicted from the characters of its own window before it), so unlike training's sampled
windows it is the same number every time.
"""
import math

import numpy as np

from .errors import LayerwiseError
from .loss import cross_entropy_forward
from .model import forward


def perplexity(loss):
    """``exp(L)``: the number of equally likely characters that would leave the model as unsure as it is."""
    return math.exp(loss)


def bits_per_character(loss):
    """``L / ln 2``: the loss in bits instead of nats."""
    return loss / math.log(2)


def uniform_loss(vocab_size):
    """``ln V``: the loss of giving every character the same probability ``1 / V``."""
    return math.log(vocab_size)


def unigram_probabilities(train_ids, vocab_size):
    """Character frequencies of the training ids ``(V,)``, add-one smoothed so that a character the training text
    lacks keeps a small probability instead of an infinite loss."""
    counts = np.bincount(np.asarray(train_ids), minlength=vocab_size)  # (V,)
    return (counts + 1) / (counts.sum() + vocab_size)


def unigram_loss(train_ids, val_ids, vocab_size):
    """Mean ``-ln p(character)`` of the validation targets (every id but the first, as for the model) under the
    training text's character frequencies: a model that ignores the context entirely."""
    probs = unigram_probabilities(train_ids, vocab_size)  # (V,)
    return float(-np.log(probs[np.asarray(val_ids)[1:]]).mean())


def held_out_loss(params, config, val_ids):
    """Mean cross-entropy of the model on every target of ``val_ids``, read in consecutive windows of seq_len."""
    val_ids = np.asarray(val_ids)
    if len(val_ids) < 2:
        raise LayerwiseError(f"held_out_loss: need at least 2 ids (an input and its target), got {len(val_ids)}")
    total, count = 0.0, 0
    for start in range(0, len(val_ids) - 1, config.seq_len):
        x = val_ids[start:start + config.seq_len]  # (T,) the last window may be shorter
        y = val_ids[start + 1:start + 1 + len(x)]
        x = x[:len(y)]
        logits, _ = forward(params, x[None, :], config)  # (1, T, V)
        loss, _ = cross_entropy_forward(logits[0], y)
        total, count = total + loss * len(y), count + len(y)  # a mean per window: weight it by its length
    return total / count


def sliding_loss(params, config, val_ids):
    """Mean cross-entropy of the model on every target of ``val_ids``, each read with as much context as the model
    takes: the first window's targets as in ``held_out_loss``, then every later target as the last position of the
    window of seq_len ids that ends just before it. Consecutive windows give a window's first target one character
    of context and the average about T / 2, so this is the lower, fairer number (and T times the work)."""
    val_ids = np.asarray(val_ids)
    T = config.seq_len
    if len(val_ids) <= T + 1:  # one window holds every target, each with all the context there is
        return held_out_loss(params, config, val_ids)
    first_logits, _ = forward(params, val_ids[None, :T], config)  # (1, T, V)
    first, _ = cross_entropy_forward(first_logits[0], val_ids[1:T + 1])
    starts = np.arange(1, len(val_ids) - T)  # (W,) windows whose last position has a target
    windows = val_ids[starts[:, None] + np.arange(T)[None, :]]  # (W, T)
    logits, _ = forward(params, windows, config)  # (W, T, V)
    rest, _ = cross_entropy_forward(logits[:, -1], val_ids[starts + T])
    return (first * T + rest * len(starts)) / (T + len(starts))  # a mean per part: weight each by its targets

