"""Widget kind ``modern_block``: the counts worked by hand for the default (every switch on), and the losses
against a training run made here with the engine's own train."""
import io
import math

import numpy as np

from engine import modern_block
from engine.data import load_corpus
from engine.examples import KINDS, run
from engine.train import train
from results import values


def test_modern_block_defaults_by_hand():
    result = run("modern_block", KINDS["modern_block"].defaults())
    V = len(set(load_corpus()))
    # d 24, H 2 so hs 12, one key/value head (12 wide), SwiGLU F 32, one block, RMSNorm, no position table:
    # tok 24 V; attention 2*24*24 + 2*24 (q, o) + 2*24*12 + 2*12 (k, v) = 1800; SwiGLU 3*24*32 = 2304;
    # norms 3 * 24 = 72; head 24 V + V
    assert values(result, "yours").tolist() == [25 * V + 1800 + 2304 + 72 + 24 * V, 2 * 12,
                                                 24 * 24 * 2 + 2 * 24 * 12 + 3 * 24 * 32 + 24 * V + 2 * 16 * 24]
    # GPT-2's block: + 16 * 24 position rows, attention 4*24*24 + 4*24, MLP 2*24*48 + 48 + 24, LayerNorm 6 * 24
    assert values(result, "gpt2")[:2].tolist() == [25 * V + 16 * 24 + 2400 + 2376 + 144 + 24 * V, 2 * 24]


def test_the_losses_are_a_real_training_run():
    result = run("modern_block", {**KINDS["modern_block"].defaults(), "steps": 20})
    direct = train(modern_block.BASE, load_corpus(), modern_block.settings(20, 0), out=io.StringIO())
    mine, gpt2 = values(result, "val_loss")
    assert gpt2 == direct.history["val_loss"][-1][1]
    assert mine < math.log(len(set(load_corpus()))) and np.isfinite(mine)  # below the uniform guess
