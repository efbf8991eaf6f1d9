"""Held-out loss, perplexity, bits per character and the two baselines, against computations written out here."""
import math
from collections import Counter

import numpy as np
import pytest

from engine import data, evaluation, model
from engine.config import GPTConfig
from engine.errors import LayerwiseError


def test_units_of_a_loss():
    assert evaluation.perplexity(math.log(7.0)) == pytest.approx(7.0, rel=1e-12)  # ln 7 nats: 7 equal choices
    assert evaluation.bits_per_character(math.log(8.0)) == pytest.approx(3.0, rel=1e-12)  # 8 choices: 3 bits
    assert evaluation.uniform_loss(60) == pytest.approx(math.log(60), rel=1e-15)


def test_unigram_loss_by_counting():
    train_ids, val_ids = [0, 0, 0, 1], [2, 0, 1, 0]  # id 2 never in training: add-one keeps it finite
    counts = Counter(train_ids)
    p = {i: (counts[i] + 1) / (len(train_ids) + 3) for i in range(3)}  # 4/7, 2/7, 1/7
    expected = -(math.log(p[0]) + math.log(p[1]) + math.log(p[0])) / 3  # the first id is never a target
    assert evaluation.unigram_loss(train_ids, val_ids, 3) == pytest.approx(expected, rel=1e-12)


def _plain_held_out_loss(params, config, ids):
    """Every target once: position j of window w (start w T) is predicted from ids w T .. w T + j, a log-softmax
    written with math on the forward's logits one position at a time."""
    losses = []
    for start in range(0, len(ids) - 1, config.seq_len):
        window = [int(i) for i in ids[start:start + config.seq_len + 1]]
        logits, _ = model.forward(params, np.array([window[:-1]]), config)
        for j, target in enumerate(window[1:]):
            row = [float(z) for z in logits[0, j]]
            top = max(row)
            losses.append(top + math.log(sum(math.exp(z - top) for z in row)) - row[target])
    return sum(losses) / len(losses)


def _tiny_model_and_ids(length):
    """A one-block model with T = 8 and V = 7, and ``length`` random ids seeded by the length."""
    config = GPTConfig(vocab_size=7, seq_len=8, emb_dim=8, num_heads=2, ff_dim=16, num_layers=1, init="xavier")
    return config, model.init_params(config, seed=3), np.random.default_rng(length).integers(0, 7, size=length)


@pytest.mark.parametrize("length", [2, 9, 17, 40])  # shorter than, equal to one window plus one, several windows
def test_held_out_loss_counts_every_target_once(length):
    config, params, ids = _tiny_model_and_ids(length)
    assert evaluation.held_out_loss(params, config, ids) == pytest.approx(
        _plain_held_out_loss(params, config, ids), rel=1e-12)
    with pytest.raises(LayerwiseError, match=r"held_out_loss: need at least 2 ids \(an input and its target\), got 1"):
        evaluation.held_out_loss(params, config, ids[:1])


def _plain_sliding_loss(params, config, ids):
    """Target j (1 <= j < n) predicted from the ids before it, at most T of them: one forward per target, its last
    position's log-softmax written with math."""
    losses = []
    for j in range(1, len(ids)):
        context = [int(i) for i in ids[max(0, j - config.seq_len):j]]
        logits, _ = model.forward(params, np.array([context]), config)
        row = [float(z) for z in logits[0, -1]]
        top = max(row)
        losses.append(top + math.log(sum(math.exp(z - top) for z in row)) - row[int(ids[j])])
    return sum(losses) / len(losses)


@pytest.mark.parametrize("length", [2, 9, 10, 17, 40])  # shorter than a window, one window, one target past it, more
def test_sliding_loss_gives_every_target_its_full_context(length):
    config, params, ids = _tiny_model_and_ids(length)
    assert evaluation.sliding_loss(params, config, ids) == pytest.approx(
        _plain_sliding_loss(params, config, ids), rel=1e-12)


def test_the_corpus_baselines():
    text = data.load_corpus()
    vocab = data.build_vocab(text)
    train_ids, val_ids = data.split_ids(data.encode(text, vocab))
    train_text = text[:len(train_ids)]
    counts = Counter(train_text)
    targets = text[len(train_ids) + 1:]
    expected = -sum(math.log((counts[ch] + 1) / (len(train_text) + len(vocab))) for ch in targets) / len(targets)
    assert evaluation.unigram_loss(train_ids, val_ids, len(vocab)) == pytest.approx(expected, rel=1e-10)
