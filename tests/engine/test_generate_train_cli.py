"""Sampling, generation, the training loop and the command line, end to end on tiny sizes."""
import io

import numpy as np
import pytest

from engine import model
from engine.__main__ import main
from engine.checkpoint import load_checkpoint
from engine.config import GPTConfig
from engine.errors import LayerwiseError, VocabularyError
from engine.generate import generate, generate_text, sample_next, sampling_distribution
from engine.train import TrainSettings, progress_bar, train

TEXT = "the cat sat on the mat. " * 20
TINY = GPTConfig(seq_len=8, emb_dim=8, num_heads=2, ff_dim=16, num_layers=1)


def test_sampling_follows_softmax_at_temperature_one():
    rng = np.random.default_rng(0)
    logits = np.log(np.array([0.1, 0.2, 0.7]))  # softmax gives back these probabilities
    counts = np.bincount([sample_next(logits, rng) for _ in range(20_000)], minlength=3) / 20_000
    np.testing.assert_allclose(counts, [0.1, 0.2, 0.7], atol=0.015)


def test_top_k_and_temperature():
    rng = np.random.default_rng(1)
    logits = np.array([0.0, 1.0, 2.0, 3.0])
    assert {sample_next(logits, rng, top_k=2) for _ in range(300)} == {2, 3}
    assert {sample_next(logits, rng, top_k=1) for _ in range(50)} == {3}
    assert {sample_next(logits, rng, temperature=0.01) for _ in range(50)} == {3}  # nearly greedy
    hot = [sample_next(logits, rng, temperature=100.0) for _ in range(2000)]  # nearly uniform
    assert min(np.bincount(hot, minlength=4)) > 350


def test_sampling_distribution_worked_by_hand():
    logits = np.log([1.0, 2.0, 3.0])  # exp gives 1, 2, 3: probabilities 1/6, 2/6, 3/6
    np.testing.assert_allclose(sampling_distribution(logits), [1 / 6, 2 / 6, 3 / 6], rtol=1e-12)
    np.testing.assert_allclose(sampling_distribution(logits, top_k=2), [0, 2 / 5, 3 / 5], rtol=1e-12)
    # temperature 2 halves the logits: exp(ln(x) / 2) = sqrt(x), so weights 1, sqrt 2, sqrt 3
    roots = np.sqrt([1.0, 2.0, 3.0])
    np.testing.assert_allclose(sampling_distribution(logits, temperature=2.0), roots / roots.sum(), rtol=1e-12)
    # sample_next draws from it: with seed 0 the same uniform picks the same id either way
    probs = sampling_distribution(logits, 0.5, 2)
    draws = [sample_next(logits, np.random.default_rng(s), 0.5, 2) for s in range(50)]
    assert draws == [int(np.random.default_rng(s).choice(3, p=probs)) for s in range(50)]


def test_top_p_worked_by_hand():
    logits = np.log([0.5, 0.3, 0.15, 0.05])  # softmax gives back these probabilities
    # 0.5 alone is below 0.7; with 0.3 the sum is 0.8: those two stay, renormalised to 0.5/0.8 and 0.3/0.8
    np.testing.assert_allclose(sampling_distribution(logits, top_p=0.7), [0.625, 0.375, 0, 0], atol=1e-15)
    np.testing.assert_allclose(sampling_distribution(logits, top_p=0.45), [1, 0, 0, 0], atol=1e-15)
    # 0.5 + 0.3 + 0.15 = 0.95 < 0.96: all four are needed
    np.testing.assert_allclose(sampling_distribution(logits, top_p=0.96), [0.5, 0.3, 0.15, 0.05], rtol=1e-12)
    np.testing.assert_allclose(sampling_distribution(logits, top_p=1.0), [0.5, 0.3, 0.15, 0.05], rtol=1e-12)
    # top-k first (k = 3: 0.5, 0.3, 0.15 renormalised over 0.95), then top-p 0.8 on those: 0.5/0.95 = 0.526 is short,
    # adding 0.3/0.95 gives 0.842 >= 0.8, so the first two stay: 0.5/0.8 and 0.3/0.8 again
    np.testing.assert_allclose(sampling_distribution(logits, top_k=3, top_p=0.8), [0.625, 0.375, 0, 0], atol=1e-15)


def test_top_p_keeps_ties_with_the_last_id_needed():
    logits = np.log([0.4, 0.2, 0.2, 0.2])
    # 0.4 + 0.2 reaches 0.5 with any one of the three 0.2s; all three tie with it, so all three stay
    np.testing.assert_allclose(sampling_distribution(logits, top_p=0.5), [0.4, 0.2, 0.2, 0.2], rtol=1e-12)
    np.testing.assert_allclose(sampling_distribution(logits, top_p=0.3), [1, 0, 0, 0], atol=1e-15)
    # temperature 0.5 squares the weights: 0.16, 0.04, 0.04, 0.04 over 0.28; 0.16/0.28 = 0.571 >= 0.55 alone
    np.testing.assert_allclose(sampling_distribution(logits, temperature=0.5, top_p=0.55), [1, 0, 0, 0], atol=1e-15)
    draws = {sample_next(logits, np.random.default_rng(s), top_p=0.3) for s in range(50)}
    assert draws == {0}


@pytest.mark.parametrize("kwargs, message", [
    ({"top_p": 0}, r"sampling_distribution: top_p must be None or a number in \(0, 1\], got 0"),
    ({"top_p": 1.5}, r"top_p must be None or a number in \(0, 1\], got 1.5"),
    ({"temperature": 0}, r"sampling_distribution: temperature must be a finite number > 0, got 0"),
    ({"temperature": float("nan")}, r"temperature must be a finite number > 0, got nan"),
    ({"top_k": 5}, r"sampling_distribution: top_k must be None or an integer in \[1, 4\], got 5"),
    ({"top_k": 0}, r"top_k must be None or an integer in \[1, 4\], got 0"),
])
def test_bad_sampling_arguments(kwargs, message):
    with pytest.raises(LayerwiseError, match=message):
        sample_next(np.zeros(4), np.random.default_rng(0), **kwargs)


def test_generation_crops_long_prompts_to_the_context():
    config = TINY.with_overrides(vocab_size=5)
    params = model.init_params(config)
    prompt = np.arange(20) % 5  # longer than seq_len = 8
    out = generate(params, config, prompt, 6, np.random.default_rng(0))
    assert len(out) == 26 and list(out[:20]) == list(prompt)
    assert out.min() >= 0 and out.max() < 5
    with pytest.raises(LayerwiseError, match=r"generate: the prompt is empty"):
        generate(params, config, [], 3, np.random.default_rng(0))


def test_generate_text_names_a_prompt_character_missing_from_the_vocabulary():
    vocab = list(" abc")
    config = TINY.with_overrides(vocab_size=4)
    params = model.init_params(config)
    assert generate_text(params, config, vocab, "ab", 5).startswith("ab")
    with pytest.raises(VocabularyError, match=r"encode: character 'Q' \(at position 1\) is not in the vocabulary"):
        generate_text(params, config, vocab, "aQ", 5)


def test_progress_bar():
    assert progress_bar(5, 10, 2.5, width=10) == "[#####-----]  5/10  loss 2.5000"
    assert progress_bar(5, 10, 2.5, 1.25, width=10) == "[#####-----]  5/10  loss 2.5000  grad norm 1.2500"


def test_the_gradient_norm_before_clipping_is_logged_for_every_step():
    from engine.data import build_vocab, encode, get_batch, split_ids
    from engine.model import init_params, loss_and_grads
    settings = TrainSettings(steps=3, batch_size=4, lr=1e-2, warmup_steps=1, eval_every=3, grad_clip=0.05)
    out = io.StringIO()
    result = train(TINY, TEXT, settings, out=out)
    assert len(result.history["grad_norm"]) == 3
    # step 1 redone by hand: the same first batch and initial weights, the norm as one long vector's length
    vocab = build_vocab(TEXT)
    config = TINY.with_overrides(vocab_size=len(vocab))
    x, y = get_batch(split_ids(encode(TEXT, vocab))[0], 4, config.seq_len, np.random.default_rng(settings.seed))
    _, grads = loss_and_grads(init_params(config, settings.seed), x, y, config)
    by_hand = np.sqrt(sum((g.astype(np.float64) ** 2).sum() for g in grads.values()))
    assert result.history["grad_norm"][0] == pytest.approx(by_hand, rel=1e-12)
    assert by_hand > settings.grad_clip  # logged before the clip, so above it here
    assert f"grad norm {result.history['grad_norm'][-1]:.4f}  val " in out.getvalue().splitlines()[-1]


def test_training_lowers_the_loss_and_writes_a_checkpoint(tmp_path):
    out = io.StringIO()
    settings = TrainSettings(steps=60, batch_size=8, lr=1e-2, warmup_steps=5, eval_every=20,
                             checkpoint_path=str(tmp_path / "m.npz"), checkpoint_every=30)
    result = train(TINY, TEXT, settings, out=out)
    losses = result.history["train_loss"]
    assert len(losses) == 60 and result.config.vocab_size == len(set(TEXT))
    assert np.mean(losses[-10:]) < np.mean(losses[:10]) - 0.5
    assert [step for step, _ in result.history["val_loss"]] == [20, 40, 60]
    assert out.getvalue().count("loss") == 3 and "60/60" in out.getvalue()
    assert (tmp_path / "m.npz").exists()


def test_training_refuses_a_vocabulary_size_that_does_not_fit():
    with pytest.raises(LayerwiseError, match=r"train: config.vocab_size is 3 but the text's vocabulary has 11 tokens"):
        train(TINY.with_overrides(vocab_size=3), TEXT, TrainSettings(steps=1))


@pytest.mark.parametrize("field, value, message", [
    ("steps", 0, r"TrainSettings: steps must be an integer >= 1, got 0"),
    ("batch_size", 2.5, r"TrainSettings: batch_size must be an integer >= 1, got 2.5"),
    ("lr", -1e-3, r"TrainSettings: lr must be a finite number > 0, got -0.001"),
    ("lr", float("inf"), r"TrainSettings: lr must be a finite number > 0, got inf"),  # the review's F10: accepted
    ("weight_decay", -0.1, r"TrainSettings: weight_decay must be a finite number >= 0, got -0.1"),
])
def test_bad_training_settings_are_named(field, value, message):
    with pytest.raises(LayerwiseError, match=message):
        TrainSettings(**{field: value})


def test_command_line_train_then_talk(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    checkpoint = tmp_path / "ckpt.npz"
    sizes = ["--set", "emb_dim=8", "--set", "num_heads=2", "--set", "ff_dim=16", "--set", "num_layers=1"]
    assert main(["train", "--corpus", str(corpus), "--steps", "5", "--out", str(checkpoint), *sizes]) == 0
    assert f"saved {checkpoint}" in capsys.readouterr().out
    assert main(["talk", "--checkpoint", str(checkpoint), "--prompt", "the ", "--tokens", "10"]) == 0
    spoken = capsys.readouterr().out
    assert spoken.startswith("the ") and len(spoken.rstrip("\n")) == 14
    talk = ["talk", "--checkpoint", str(checkpoint), "--prompt", "the ", "--tokens", "20"]  # past seq_len = 8
    assert main(talk) == 0 and main(talk + ["--kv-cache"]) == 0
    plain, cached = capsys.readouterr().out.splitlines()[-2:]
    assert plain == cached
    assert main(talk + ["--top-p", "0.9"]) == 0
    assert capsys.readouterr().out.startswith("the ")
    assert main(talk + ["--top-p", "2"]) == 2
    assert "error: sampling_distribution: top_p must be None or a number in (0, 1], got 2.0" in capsys.readouterr().err


def test_command_line_resumes_a_checkpoint(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    sizes = ["--set", "emb_dim=8", "--set", "num_heads=2", "--set", "ff_dim=16", "--set", "num_layers=1"]
    assert main(["train", "--corpus", str(corpus), "--steps", "3", "--out", str(first), *sizes]) == 0
    resume = ["train", "--corpus", str(corpus), "--steps", "2", "--resume", str(first), "--out", str(second)]
    assert main(resume) == 0
    params, config, vocab, _ = load_checkpoint(str(first))
    resumed, resumed_config, resumed_vocab, step = load_checkpoint(str(second))
    assert (resumed_config, resumed_vocab, step) == (config, vocab, 2)  # the sizes and vocabulary came along
    assert all(resumed[name].shape == p.shape and not np.array_equal(resumed[name], p) for name, p in params.items())
    assert main(resume + ["--set", "emb_dim=16"]) == 2
    assert "--set cannot change a resumed model's sizes" in capsys.readouterr().err
    other = tmp_path / "other.txt"
    other.write_text(TEXT + "Z", encoding="utf-8")
    assert main(["train", "--corpus", str(other), "--steps", "1", "--resume", str(first), "--out", str(second)]) == 2
    assert "train: the text's characters are not the model's vocabulary" in capsys.readouterr().err


def test_command_line_errors_are_reported_not_raised(tmp_path, capsys):
    assert main(["train", "--set", "emb_dim=big"]) == 2
    assert "error: GPTConfig: emb_dim must be an integer, got 'big'" in capsys.readouterr().err
    assert main(["talk", "--checkpoint", str(tmp_path / "none.npz"), "--prompt", "x"]) == 2
    assert "error: load_checkpoint: no checkpoint at" in capsys.readouterr().err


# The review's F10: each gave a traceback, was accepted, or failed with a message that did not name the flag's value
@pytest.mark.parametrize("extra, message", [
    (["--seed", "-1"], "error: generate_text: the seed must be an integer >= 0, got -1"),
    (["--tokens", "-5"], "error: generate: max_new_tokens must be an integer >= 0, got -5"),
    (["--temperature", "1e-320"], "error: sampling_distribution: temperature 1e-320 is so small that logits / "
                                  "temperature overflows"),
])
def test_command_line_talk_flags_out_of_range_are_named(trained_checkpoint, capsys, extra, message):
    assert main(["talk", "--checkpoint", str(trained_checkpoint), "--prompt", "the ", *extra]) == 2
    assert message in capsys.readouterr().err


def test_command_line_train_output_and_size_problems_are_named(tmp_path, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    assert main(["train", "--out", str(folder), "--steps", "1"]) == 2
    assert f"error: --out {folder} is a folder; give the checkpoint's file name" in capsys.readouterr().err
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["train", "--out", str(blocker / "sub" / "model.npz"), "--steps", "1"]) == 2
    assert capsys.readouterr().err.startswith(f"error: {blocker}")  # a folder cannot be made inside a file
    assert main(["train", "--steps", "1", "--set", "emb_dim=1000000000000", "--set", "num_heads=1"]) == 2  # TB
    assert "error: not enough memory for this model" in capsys.readouterr().err


@pytest.fixture
def trained_checkpoint(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    checkpoint = tmp_path / "ckpt.npz"
    sizes = ["--set", "emb_dim=8", "--set", "num_heads=2", "--set", "ff_dim=16", "--set", "num_layers=1"]
    assert main(["train", "--corpus", str(corpus), "--steps", "2", "--out", str(checkpoint), *sizes]) == 0
    return checkpoint
