"""AdamW, clipping and the learning-rate schedule by hand; the character pipeline; a model overfitting one window."""
import math
import re

import numpy as np
import pytest

from engine import data, model, optim
from engine.config import GPTConfig
from engine.errors import LayerwiseError, VocabularyError


def test_first_adamw_step_moves_each_weight_by_lr_against_its_gradient_sign():
    # after bias correction the first step is lr * g / (|g| + eps), i.e. lr * sign(g), whatever the size of g
    params = {"b": np.array([1.0, -2.0])}
    state = optim.adamw_init(params)
    optim.adamw_step(params, {"b": np.array([0.5, -3.0])}, state, lr=0.1, weight_decay=0.0)
    np.testing.assert_allclose(params["b"], [0.9, -1.9], rtol=1e-7)  # eps = 1e-8 shaves off ~2e-9
    assert state["step"] == 1


def test_weight_decay_shrinks_matrices_only():
    params = {"w": np.full((2, 2), 2.0), "b": np.full(2, 2.0)}
    zero = {name: np.zeros_like(p) for name, p in params.items()}
    optim.adamw_step(params, zero, optim.adamw_init(params), lr=0.5, weight_decay=0.1)
    np.testing.assert_allclose(params["w"], 2.0 * (1 - 0.5 * 0.1))
    np.testing.assert_array_equal(params["b"], [2.0, 2.0])


def test_clip_grad_norm_scales_all_gradients_together():
    grads = {"a": np.array([3.0, 0.0]), "b": np.array([[4.0]])}
    assert optim.clip_grad_norm(grads, 1.0) == pytest.approx(5.0)
    np.testing.assert_allclose(grads["a"], [0.6, 0.0])
    np.testing.assert_allclose(grads["b"], [[0.8]])
    small = {"a": np.array([0.3, 0.4])}
    assert optim.clip_grad_norm(small, 1.0) == pytest.approx(0.5)
    np.testing.assert_array_equal(small["a"], [0.3, 0.4])


def test_clip_grad_norm_refuses_diverged_gradients():
    with pytest.raises(LayerwiseError, match=r"clip_grad_norm: the gradient norm is not finite"):
        optim.clip_grad_norm({"a": np.array([np.inf])}, 1.0)


def test_learning_rate_warms_up_then_decays_to_a_tenth():
    lr = [optim.learning_rate(step, 1.0, warmup_steps=10, total_steps=110) for step in range(111)]
    assert lr[0] == pytest.approx(0.1) and lr[9] == pytest.approx(1.0) and lr[10] == pytest.approx(1.0)
    assert lr[60] == pytest.approx(0.1 + 0.9 * 0.5)  # halfway through the cosine
    assert lr[110] == pytest.approx(0.1)
    assert all(a >= b for a, b in zip(lr[10:], lr[11:]))


def test_vocabulary_round_trip_with_non_ascii():
    text = "naïve café — señor"
    vocab = data.build_vocab(text)
    assert vocab == sorted(set(text)) and "—" in vocab
    assert data.decode(data.encode(text, vocab), vocab) == text


def test_unknown_character_is_named():
    with pytest.raises(VocabularyError, match=r"encode: character 'z' \(at position 2\) is not in the vocabulary "
                                              r"of 3 characters"):
        data.encode("abz", ["a", "b", "c"])
    with pytest.raises(VocabularyError, match=r"decode: id 5 has no character in a vocabulary of 3"):
        data.decode([0, 5], ["a", "b", "c"])


def test_batches_are_windows_with_targets_shifted_by_one():
    ids = np.arange(100) * 3
    x, y = data.get_batch(ids, batch_size=5, seq_len=8, rng=np.random.default_rng(0))
    assert x.shape == y.shape == (5, 8)
    np.testing.assert_array_equal(y, x + 3)  # the next id in the sequence
    np.testing.assert_array_equal(np.diff(x, axis=1), 3)  # each row is a contiguous slice
    with pytest.raises(LayerwiseError, match=r"get_batch: need at least seq_len \+ 1 = 9 ids, got 8"):
        data.get_batch(ids[:8], 2, 8, np.random.default_rng(0))


def test_split_and_shipped_corpus():
    train, val = data.split_ids(np.arange(10), 0.2)
    assert list(train) == list(range(8)) and list(val) == [8, 9]
    text = data.load_corpus()
    # Moby-Dick's first chapters, whole and in order (engine/data/README.md), hard-wrapped at 72 columns
    assert 250_000 < len(text) < 300_000 and text.startswith("CHAPTER 1. Loomings.\n\nCall me Ishmael. Some years ago")
    numbers = [int(n) for n in re.findall(r"^CHAPTER (\d+)\. ", text, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)) and text.endswith("would have soon flowered out in a smile.\n")
    assert max(len(line) for line in text.splitlines()) <= 72
    with pytest.raises(LayerwiseError, match=r"load_corpus: cannot read /nonexistent/corpus.txt"):
        data.load_corpus("/nonexistent/corpus.txt")


def test_the_model_overfits_one_window():
    config = GPTConfig(vocab_size=8, seq_len=8, emb_dim=16, num_heads=2, ff_dim=32, num_layers=1)
    params = model.init_params(config, seed=0)
    ids = np.array([[3, 1, 4, 1, 5, 2, 6, 5, 3]])
    x, y = ids[:, :-1], ids[:, 1:]
    state = optim.adamw_init(params)
    first = model.evaluate_loss(params, x, y, config)
    for _ in range(150):
        _, grads = model.loss_and_grads(params, x, y, config)
        optim.adamw_step(params, grads, state, lr=1e-2, weight_decay=0.0)
    assert first == pytest.approx(math.log(8), abs=0.05)
    assert model.evaluate_loss(params, x, y, config) < 0.05
