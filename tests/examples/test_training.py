"""The training kind: a real run of the engine's train, its learning rates against the schedule written out here,
its first window against the corpus itself, and a run that is repeatable from its seed."""
import math

import numpy as np
import pytest

from engine.data import load_corpus
from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.training import TINY
from results import raw_values

DEFAULTS = KINDS["training"].defaults()


@pytest.fixture(scope="module")
def result():
    return run("training", DEFAULTS)


def schedule(step, base, warmup, total):
    """Linear warm-up over `warmup` steps (step counts from 0), then half a cosine from base to base / 10."""
    if step < warmup:
        return base * (step + 1) / warmup
    done = min((step - warmup) / max(total - warmup, 1), 1.0)
    return base / 10 + (base - base / 10) * (1 + math.cos(math.pi * done)) / 2


def test_learning_rates_follow_the_schedule(result):
    steps, warmup, lr = DEFAULTS["steps"], DEFAULTS["warmup_steps"], DEFAULTS["lr"]
    every = steps // 6  # validation points at steps 10, 20, ..., 60
    expected = [schedule(s - 1, lr, warmup, steps) for s in range(every, steps + 1, every)]
    np.testing.assert_allclose(raw_values(result, "lr_used"), expected, rtol=1e-12)
    assert result["arithmetic"] == "Step 1 is in the warm-up: lr = 0.01 × (0 + 1) / 6 = 0.001667"


def test_loss_starts_at_ln_v_and_falls(result):
    vocab_size = len(set(load_corpus()))
    note = result["notes"][1]
    first = float(note.split("First loss ")[1].split()[0])
    assert f"ln V = {math.log(vocab_size):.4f}" in note
    assert first == pytest.approx(math.log(vocab_size), abs=0.05)
    val = raw_values(result, "val_loss")
    assert len(val) == 6 and val[-1] < val[0] < first - 0.5  # learning, measured on text it never trained on
    assert f"V = {vocab_size}, T = 16, d = 24" in result["notes"][0]


def test_first_window_is_a_corpus_slice_and_its_shift(result):
    note = result["notes"][2]
    x = note.split("input ")[1].split(", target")[0]
    y = note.split("target ")[1].rstrip(".")
    x, y = eval(x), eval(y)  # noqa: S307 - the note prints Python reprs of two strings
    assert len(x) == len(y) == TINY.seq_len
    assert x[1:] == y[:-1]
    assert (x + y[-1]) in load_corpus()


def test_progress_line_and_plots(result):
    assert result["notes"][3].startswith("What train printed: [" + "#" * 30 + "] 60/60  loss ")
    titles = [plot["title"] for plot in result["plots"]]
    assert titles == ["Loss during a short training run", "Learning rate: warm-up, then cosine",
                      "Gradient norm before clipping"]
    assert result["plots"][0]["svg"].count("<polyline") == 3  # training, validation, ln V
    assert result["plots"][2]["svg"].count("<polyline") == 2  # the norm, the clip


def test_the_clipping_note_counts_the_steps_whose_norm_passed_the_clip(result):
    from engine.examples.training import settings_for, short_run
    norms = short_run(settings_for(**DEFAULTS))[0].history["grad_norm"]
    clipped = [step for step, norm in enumerate(norms, 1) if norm > DEFAULTS["grad_clip"]]
    assert 0 < len(clipped) < len(norms)  # the default run clips some steps, early ones among them
    assert result["notes"][4].startswith(f"Clipped on {len(clipped)} of {len(norms)} steps")
    assert f"the last at step {clipped[-1]};" in result["notes"][4]
    assert f"grad norm {norms[-1]:.4f}" in result["notes"][3]  # the progress line prints it too
    calm = run("training", {**DEFAULTS, "grad_clip": 10})
    assert calm["notes"][4].startswith("The gradient norm stayed under grad_clip = 10")


def test_same_seed_same_run_other_seed_other_run(result):
    again = run("training", DEFAULTS)
    assert raw_values(again, "val_loss") == raw_values(result, "val_loss")
    other = run("training", {**DEFAULTS, "seed": 1})
    assert raw_values(other, "val_loss") != raw_values(result, "val_loss")


def test_the_page_claims_about_the_learning_rate(result):
    default_end = raw_values(result, "val_loss")[-1]
    # a rate ten times smaller learns far less in the same steps
    assert raw_values(run("training", {**DEFAULTS, "lr": 0.001}), "val_loss")[-1] > default_end + 0.5
    # at the largest allowed rate, the warm-up "wins for one seed and loses for another" over seeds 0-2, each
    # difference smaller than the default run's own spread over those seeds ("a single run is never evidence")
    def last(**inputs):
        return raw_values(run("training", {**DEFAULTS, **inputs}), "val_loss")[-1]
    gaps = [last(lr=0.05, warmup_steps=0, seed=s) - last(lr=0.05, seed=s) for s in range(3)]
    defaults = [last(seed=s) for s in range(3)]
    assert min(gaps) < 0 < max(gaps) and max(abs(gap) for gap in gaps) < max(defaults) - min(defaults)


def test_the_page_claims_about_the_gradient_norm():
    # "the first few are all clipped ... after that only the odd step is"
    from engine.examples.training import settings_for, short_run
    norms = short_run(settings_for(**DEFAULTS))[0].history["grad_norm"]
    clip = DEFAULTS["grad_clip"]
    assert all(norm > clip for norm in norms[:3])
    assert sum(norm > clip for norm in norms[10:]) < len(norms[10:]) / 3


@pytest.mark.parametrize("overrides, words", [
    ({"steps": 0}, "training example: steps must be from 1 to 120, got 0"),
    ({"batch_size": 64}, "training example: batch_size must be from 1 to 16, got 64"),
    ({"seed": -1}, "training example: seed must be from 0 to 1000000, got -1"),
    ({"lr": -1}, "training example: lr must be from 0.0001 to 0.05, got -1"),
    ({"lr": 1.27}, "training example: lr must be from 0.0001 to 0.05, got 1.27"),
    ({"warmup_steps": 61}, "training example: warmup_steps must be from 0 to 60, got 61"),  # bounded by the steps
    ({"steps": 10, "warmup_steps": 50}, "training example: warmup_steps must be from 0 to 10, got 50"),
    ({"grad_clip": 0}, "grad_clip must be from 0.01 to 10, got 0"),
])
def test_bad_settings_are_named(overrides, words):
    with pytest.raises(LayerwiseError) as error:
        run("training", {**DEFAULTS, **overrides})
    assert words in str(error.value)
