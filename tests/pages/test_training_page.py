"""The training page: its printed numbers and worked answers, against the corpus, hand arithmetic and the engine."""
import io
import math

import numpy as np

from engine import data, optim, train
from engine.config import GPTConfig
from engine.examples.generation import PROMPT
from engine.examples.training import MAX_LR, TINY

from page_values import REPO, page_text, shown_after, shown_texts

PAGE = page_text("model/training.md")

SHOWN = shown_texts("model/training.md")


def test_corpus_numbers():
    text = (REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")
    assert SHOWN[:3] == [f"{len(text):,}", str(len(set(text))), "10"]
    ids = np.arange(1000)
    train_part, val_part = data.split_ids(ids)
    assert len(val_part) == 100 and train_part[-1] + 1 == val_part[0]  # the *last* tenth is held out


def test_schedule_and_optimiser_defaults():
    assert SHOWN[3] == "0.1"  # eta_min / eta_max
    assert optim.learning_rate(10**6, 1.0, 10, 100) == 0.1  # far past the end: the floor
    assert optim.learning_rate(0, 1.0, 10, 100) == 0.1  # first warm-up step: 1/W, not 0
    assert SHOWN[4:8] == ["0.9", "0.95", "1e-08", "0.1"]  # two plain numbers, never a Python list


def adam_step_lengths(betas, steps):
    """Uncorrected over corrected step lengths, from running Adam's two moment recursions on a constant gradient."""
    m = v = 0.0
    ratios = []
    for t in range(1, steps + 1):
        m, v = betas[0] * m + (1 - betas[0]), betas[1] * v + (1 - betas[1])  # g = 1
        ratios.append((m / math.sqrt(v)) / ((m / (1 - betas[0] ** t)) / math.sqrt(v / (1 - betas[1] ** t))))
    return ratios


def test_how_far_off_an_uncorrected_adam_step_is():
    table_steps = (1, 2, 5, 10, 20, 100, 1000)
    engine_b2, usual_b2 = adam_step_lengths((0.9, 0.95), 1000), adam_step_lengths((0.9, 0.999), 1000)
    assert SHOWN[8:22] == [f"{ratios[t - 1]:.2f}" for ratios in (engine_b2, usual_b2) for t in table_steps]
    assert SHOWN[8] == "0.45" and SHOWN[15] == "3.16"  # 0.1 / sqrt(0.05) and 0.1 / sqrt(0.001)
    too_short = next(t for t, r in enumerate(engine_b2, 1) if r > 1) - 1
    assert too_short == 8 and all(r < 1 for r in engine_b2[:8])
    peak = max(range(1000), key=engine_b2.__getitem__)
    assert SHOWN[22:26] == [str(too_short), f"{engine_b2[peak]:.2f}", str(peak + 1), f"{max(usual_b2):.1f}"]
    assert SHOWN[23] == "1.10" and SHOWN[25] == "6.6"
    assert "three to six and a half times too large through the first hundred steps" in PAGE
    assert min(usual_b2[:100]) > 3 and max(usual_b2) < 6.6 and usual_b2[199] > 2


def test_reading_a_loss_landmarks_by_hand():
    text = (REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")
    uniform = math.log(len(set(text)))  # ln V
    counts = {c: text.count(c) for c in set(text)}
    entropy = -sum(n / len(text) * math.log(n / len(text)) for n in counts.values())
    assert SHOWN[33:39] == [f"{uniform:.2f}", f"{uniform / math.log(2):.2f}", f"{len(set(text)):.0f}",
                            f"{entropy:.2f}", f"{entropy / math.log(2):.2f}", f"{math.exp(entropy):.1f}"]
    assert entropy < uniform and SHOWN[39] == "1,500"


def test_the_overfitting_table_shows_memorising():
    # validated on the corpus's held-out tenth: 255,144 characters, the last 255,144 - int(0.9 * 255,144) of them
    text = (REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")
    assert SHOWN[40] == f"{len(text) - int(len(text) * 0.9):,}" == "25,515"
    rows = [SHOWN[41 + 3 * i:44 + 3 * i] for i in range(8)]
    steps = [int(step) for step, _, _ in rows]
    train_loss = [float(t) for _, t, _ in rows]
    val_loss = [float(v) for _, _, v in rows]
    assert steps == list(range(75, 601, 75))
    best = val_loss.index(min(val_loss))
    assert SHOWN[65:68] == [str(steps[best]), rows[-1][2], rows[-1][1]]
    assert all(a > b for a, b in zip(train_loss, train_loss[1:]))  # training loss keeps falling
    assert val_loss[-1] - min(val_loss) > 0.3 and val_loss[-1] - train_loss[-1] > 1.0  # "climbs": a clear gap
    # "over the first rows the validation loss hardly moves ... while the training loss falls fast"
    assert best >= 2 and max(val_loss[:best + 1]) - val_loss[best] < 0.05 and train_loss[0] - train_loss[best] > 0.5


def test_the_default_run_does_not_overfit():
    # the model page's parameter count, worked by hand, against the training nine tenths of the corpus
    text = (REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")
    V, T, d, F, L = len(set(text)), 16, 32, 128, 2
    params = (V + T) * d + L * (4 * d * d + 4 * d + 2 * d * F + F + d + 4 * d) + 2 * d + d * V + V
    train_chars = int(len(text) * 0.9)
    shown = shown_after("model/training.md", "The default run does not overfit", 13)
    assert shown[:7] == [f"{params:,}", f"{train_chars:,}", f"{params / train_chars:.2f}", "2,000", "16", "16",
                         f"{2000 * 16 * 16 / train_chars:.1f}"]
    # the run itself, as `python -m engine train` makes it: every evaluation from step 400 on is within 0.1 of the
    # mean training loss of the steps before it ("its two curves fall together"), and the last two still fall
    history = train.train(GPTConfig(), text, train.TrainSettings(), out=io.StringIO()).history
    rows = [(step, sum(history["train_loss"][step - 200:step]) / 200, val) for step, val in history["val_loss"]]
    assert [step for step, _, _ in rows] == list(range(200, 2001, 200))
    assert all(abs(val - mean) < 0.1 for step, mean, val in rows if step >= 400)
    (step_before, _, val_before), (step, mean, val) = rows[-2:]
    assert shown[7:] == ["2,000", "200", f"{mean:.2f}", f"{val:.2f}", f"{val_before:.2f}", "1,800"]
    assert val < val_before  # "still falling"


def test_the_one_window_test_the_page_describes():
    source = (REPO / "tests" / "engine" / "test_optim_data.py").read_text()
    body = source[source.index("def test_the_model_overfits_one_window"):]
    body = body[:body.index("\ndef ")] if "\ndef " in body else body
    assert "vocab_size=8" in body and "math.log(8)" in body and "range(150)" in body and "< 0.05" in body
    assert "np.array([[3, 1, 4, 1, 5, 2, 6, 5, 3]])" in body  # nine ids: eight inputs, eight targets
    assert "from $\\ln 8$ to below 0.05 on eight characters in 150" in PAGE


def test_knowledge_check_reading_a_loss():
    assert SHOWN[84:86] == [f"{1.5 / math.log(2):.2f}", f"{math.exp(1.5):.2f}"] == ["2.16", "4.48"]
    assert 4 < math.exp(1.5) < 5 and SHOWN[86] == SHOWN[35] and SHOWN[87] == SHOWN[36]  # the frequency-only loss, as in the section


def test_command_line_defaults():
    settings = train.TrainSettings()
    assert SHOWN[26:33] == ["2,000", "16", "0.003", "100", "1.0", "200", "500"]
    assert (settings.steps, settings.batch_size, settings.lr, settings.warmup_steps, settings.grad_clip,
            settings.eval_every, settings.checkpoint_every) == (2000, 16, 0.003, 100, 1.0, 200, 500)


def test_knowledge_check_predictions_per_step():
    assert SHOWN[81:84] == ["16", "16", "256"]


def test_knowledge_check_clipping():
    grads = {"a": np.array([3.0, 0.0]), "b": np.array([0.0, 4.0])}
    assert optim.clip_grad_norm(grads, 1.0) == 5.0  # sqrt(9 + 16)
    np.testing.assert_allclose(grads["a"], [0.6, 0.0])
    np.testing.assert_allclose(grads["b"], [0.0, 0.8])
    assert "$(0.6, 0)$ and $(0, 0.8)$" in PAGE and "$\\sqrt{3^2 + 4^2} = 5 > 1$" in PAGE


def test_knowledge_check_first_adamw_step_moves_by_the_learning_rate():
    # m_1 / (1 - beta1) = g and v_1 / (1 - beta2) = g^2, so the step is lr * |g| / (|g| + eps): lr, up to eps
    for g in (1e-3, -7.0, 250.0):
        params, grads = {"w": np.array([0.5])}, {"w": np.array([g])}
        optim.adamw_step(params, grads, optim.adamw_init(params), lr=0.01, weight_decay=0.0)
        assert math.isclose(params["w"][0], 0.5 - 0.01 * math.copysign(abs(g) / (abs(g) + 1e-8), g), rel_tol=1e-12)
    assert "$\\eta\\, g / |g| = \\pm \\eta$" in PAGE


def test_knowledge_check_top_k_and_temperature():
    assert SHOWN[88] == f"{math.exp(0) / (math.exp(1) + math.exp(0.5) + math.exp(0)):.4f}"
    assert len(SHOWN) == 89


def test_typed_description_of_the_widgets():
    assert "a one-block model of width 24" in PAGE and (TINY.num_layers, TINY.emb_dim) == (1, 24)
    assert 'continuing the prompt "Call me"' in PAGE and PROMPT == "Call me"
    assert "Set `lr` to 0.05, the largest this widget allows" in PAGE and "Above 0.05" in PAGE and MAX_LR == 0.05
    assert "`tests/engine/test_optim_data.py`" in PAGE
    cited = (REPO / "tests" / "engine" / "test_optim_data.py").read_text()
    assert all(f"optim.{name}(" in cited for name in ("clip_grad_norm", "adamw_step", "learning_rate"))


def test_the_training_set_up_cited_from_gpt3_is_the_engines():
    # Brown et al. 2020, appendix B, as the References line types it, against the engine's own defaults
    import inspect
    assert ("$\\beta_1 = 0.9$, $\\beta_2 = 0.95$, $\\epsilon = 10^{-8}$, global-norm\n  clipping at 1.0, a linear warm-up, "
            "cosine decay to 10 % of the peak rate, weight decay 0.1") in PAGE
    adamw = inspect.signature(optim.adamw_step).parameters
    assert adamw["betas"].default == (0.9, 0.95) and adamw["eps"].default == 1e-8
    settings = train.TrainSettings()
    assert settings.grad_clip == 1.0 and settings.weight_decay == 0.1 and settings.warmup_steps > 0
    assert optim.learning_rate(10**6, 1.0, 10, 100) == 0.1  # the cosine ends at 10 % of the peak
