"""The comparison table of engine.modern_block: each variant differs from GPT-2's block by its switch alone."""
import io

from engine import modern_block
from engine.data import load_corpus
from engine.tokenizer import BPE_TRAINING_CHARACTERS, train_bpe
from engine.train import train


def test_each_row_changes_what_its_switch_changes():
    rows = modern_block.comparison(steps=10, seed=0)
    assert list(rows) == list(modern_block.SWITCHES)
    gpt2 = rows["GPT-2"]
    V = len(set(load_corpus()))
    assert gpt2[0] == 24 * V + 16 * 24 + (4 * 24 * 24 + 4 * 24) + (2 * 24 * 48 + 48 + 24) + 6 * 24 + 24 * V + V
    assert rows["+ rotary positions"][0] == gpt2[0] - 16 * 24  # the position table goes, nothing else
    assert rows["+ SwiGLU (2/3 width)"][0] == gpt2[0] - (2 * 24 * 48 + 48 + 24) + 3 * 24 * 32  # F' = 32
    assert rows["+ multi-query attention"][1] == gpt2[1] // 2 == 24  # one key/value head of two
    assert rows["+ RMSNorm"][0] == gpt2[0] - 3 * 24  # three norms lose their beta
    assert len({row[3] for row in rows.values()}) == len(rows)  # every variant trained on its own
    N = len(train_bpe(load_corpus()[:BPE_TRAINING_CHARACTERS], 512))  # merges from the first characters
    bpe = rows["+ BPE tokens (512)"]
    assert bpe[0] == gpt2[0] + 2 * 24 * (N - V) + (N - V)  # the token table, the head and its bias grow; nothing else
    assert bpe[1:3] == (gpt2[1], gpt2[2] + 24 * (N - V))  # the head scores N tokens a step: d multiply-adds each


def test_a_bpe_models_loss_is_per_character():
    # 10 steps of a model of the BPE row: its loss per token, spread over the characters of its held-out tokens
    config = modern_block.variant(modern_block.SWITCHES["+ BPE tokens (512)"])
    text = load_corpus()
    result = train(config.with_overrides(vocab_size=None), text, modern_block.settings(10, 0), out=io.StringIO())
    tokenizer = train_bpe(text[:BPE_TRAINING_CHARACTERS], 512)
    held_out = tokenizer.encode(text)[int(0.9 * len(tokenizer.encode(text))):]
    per_token = result.history["val_loss"][-1][1]
    expected = per_token * len(held_out) / len(tokenizer.decode(held_out))
    assert abs(modern_block.trained(config, 10, 0)[1] - expected) < 1e-12
    assert expected < per_token  # a token spells more than one character on average


def test_steps_per_second_is_the_median_of_its_timings(monkeypatch):
    clock = iter([0.0, 1.0, 1.0, 3.0, 3.0, 7.0])  # repetitions of 2 steps taking 1 s, 2 s and 4 s
    monkeypatch.setattr(modern_block.time, "perf_counter", lambda: next(clock))
    assert modern_block.steps_per_second(modern_block.variant({}), steps=2, repeats=3) == 1.0  # of 2, 1 and 0.5
