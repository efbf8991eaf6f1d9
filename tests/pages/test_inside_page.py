"""The page "Inside a trained model": its printed sizes, and the attention pattern its prose describes, against
computations written out here on the trained model."""

import numpy as np
from page_values import REPO, shown_after

from engine import data
from engine.inside import analysis

from layerwise_build.livewidgets import trained_model

PAGE = "model/inside.md"


def test_model_and_corpus_sizes():
    V, T, d, F, L = 60, 16, 32, 128, 2
    params = V * d + T * d + L * (4 * d * d + 4 * d + 2 * d * F + F + d + 2 * 2 * d) + 2 * d + d * V + V
    text = (REPO / "engine" / "data" / "sonnets.txt").read_text(encoding="utf-8")
    assert shown_after(PAGE, "still far from certain", 2) == [f"{params:,}", f"{int(len(text) * 0.9):,}"]


def test_the_first_block_reads_the_current_and_the_previous_character():
    params, config, vocab = analysis.load(str(trained_model.ensure(REPO, "engine") / trained_model.CHECKPOINT))
    maps = np.array(analysis.analyse(params, config, vocab, "Shall I compare thee to a summer's day?")["attention"])
    T = maps.shape[-1]
    near = [np.mean([maps[b, h, q, q] + maps[b, h, q, q - 1] for q in range(1, T)]) for b in range(2) for h in range(4)]
    assert min(near[:4]) > 0.5  # block 1: over half of every head's weight on the position and the one before
    assert max(near[4:]) < min(near[:4])  # block 2 spreads further back
    assert len(data.build_vocab(data.load_corpus())) == len(vocab)
