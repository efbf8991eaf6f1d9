"""The page "Inside a trained model": its printed sizes, and the attention pattern its prose describes, against
computations written out here on the trained model."""

import numpy as np
from page_values import REPO, shown_after

from engine import data
from engine.inside import analysis

from layerwise_build.livewidgets import trained_model
from layerwise_build.parts.inside import DEFAULT_PROMPT

PAGE = "model/inside.md"


def test_model_and_corpus_sizes():
    text = (REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")
    V, T, d, F, L = len(set(text)), 16, 32, 128, 2
    params = V * d + T * d + L * (4 * d * d + 4 * d + 2 * d * F + F + d + 2 * 2 * d) + 2 * d + d * V + V
    assert shown_after(PAGE, "still far from certain", 2) == [f"{params:,}", f"{int(len(text) * 0.9):,}"]


def test_the_first_block_reads_the_current_and_the_previous_character():
    params, config, vocab = analysis.load(str(trained_model.ensure(REPO, "engine") / trained_model.CHECKPOINT))
    maps = np.array(analysis.analyse(params, config, vocab, DEFAULT_PROMPT)["attention"])
    T = maps.shape[-1]
    near = [np.mean([maps[b, h, q, q] + maps[b, h, q, q - 1] for q in range(1, T)]) for b in range(2) for h in range(4)]
    assert min(near[:4]) > 0.5  # block 1: over half of every head's weight on the position and the one before
    assert max(near[4:]) < min(near[:4])  # block 2 spreads further back
    assert len(data.build_vocab(data.load_corpus())) == len(vocab)


def test_the_residual_stream_grows_most_in_the_first_block():
    # the stream's RMS per position as the chart draws it, averaged over the prompt, stage by stage
    params, config, vocab = analysis.load(str(trained_model.ensure(REPO, "engine") / trained_model.CHECKPOINT))
    ids = data.encode(DEFAULT_PROMPT[-config.seq_len:], vocab)
    sizes = [float(np.mean(rms)) for rms in analysis.residual_rms(params, ids, config)]
    assert sizes[1] > 2 * sizes[0]  # "several times the size it had after the embedding"
    assert sizes[2] - sizes[1] < (sizes[1] - sizes[0]) / 3  # "the second block adds comparatively little"


def test_the_knowledge_check_units():
    import math
    assert shown_after(PAGE, "Another character model reports 1.0 bit", 1) == [f"{math.log(2):.3f}"]
    text = (REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")
    entropy = -sum(text.count(c) / len(text) * math.log(text.count(c) / len(text)) for c in set(text))
    assert shown_after(PAGE, "Why can a perplexity of 20", 2) == [f"{math.log(20):.1f}", f"{math.exp(entropy):.1f}"]
    assert 20 < math.exp(entropy) < 25  # "not much better than letter frequencies": a perplexity of 20 is near it
