"""The whole-model kind: sizes counted by hand, the loss and its gradient recomputed from the shown probabilities,
the embedding rows against the stream's gradient, the AdamW step against its first-step closed form.

Named ``_kind`` because tests/engine/test_model.py already takes the module name ``test_model``."""
import json
import math

import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run, run_json
from results import values

DEFAULTS = KINDS["model"].defaults()


@pytest.fixture(scope="module")
def result():
    return run("model", DEFAULTS)


def test_parameter_count_by_hand(result):
    # V = 3, T = 4, d = 4, F = 8, L = 1, LayerNorm, pre-LN:
    # tok_emb 3*4 + pos_emb 4*4 = 28; attention 4*16 + 4*4 = 80; MLP 4*8 + 8 + 8*4 + 4 = 76; two norms 16;
    # final norm 8; head 4*3 + 3 = 15.  28 + 172 + 8 + 15 = 223.
    assert result["arithmetic"].endswith("= 28 + 172 + 8 + 15 = 223")
    assert "count_params adds up their sizes: 223; the closed form param_count gives 223." in result["notes"][0]


@pytest.mark.parametrize("overrides, total", [
    ({"post_ln": 1}, 223 - 8),  # no final norm
    ({"rmsnorm": 1}, 28 + (80 + 76 + 8) + 4 + 15),  # gains only: d per norm
    ({"num_layers": 2}, 223 + 172),
])
def test_parameter_count_variants(overrides, total):
    result = run("model", {**DEFAULTS, **overrides})
    assert result["arithmetic"].endswith(f"= {total}")
    assert f"param_count gives {total}." in result["notes"][0]


def test_embeddings_start_the_stream(result):
    tok, pos, x0 = values(result, "tok_emb"), values(result, "pos_emb"), values(result, "x0")
    np.testing.assert_allclose(x0, tok[DEFAULTS["ids"]] + pos, atol=2e-4)  # shown values have 4 decimals


def test_loss_and_its_gradient_from_the_shown_probabilities(result):
    probs = values(result, "probs")
    targets = DEFAULTS["targets"]
    np.testing.assert_allclose(probs.sum(axis=1), 1, atol=2e-4)
    expected_loss = -sum(math.log(probs[t, y]) for t, y in enumerate(targets)) / len(targets)
    assert values(result, "loss") == pytest.approx(expected_loss, abs=5e-4)
    onehot = np.zeros_like(probs)
    onehot[np.arange(4), targets] = 1
    np.testing.assert_allclose(values(result, "dlogits"), (probs - onehot) / 4, atol=1e-4)
    # a fresh model with GPT-2's small weights predicts about 1/V for every character
    assert values(result, "loss") == pytest.approx(math.log(3), abs=0.05)


def test_repeated_id_row_is_the_sum_of_its_positions(result):
    dpos, dtok = values(result, "dpos_emb"), values(result, "dtok_emb")
    # ids [0, 1, 2, 0]: with one sequence, dpos_emb[t] is the stream's gradient at t
    np.testing.assert_allclose(dtok[0], dpos[0] + dpos[3], atol=2e-4)
    np.testing.assert_allclose(dtok[1], dpos[1], atol=1e-12)
    np.testing.assert_allclose(dtok[2], dpos[2], atol=1e-12)
    assert "dtok_emb[0] adds the stream's gradients there; with one sequence those are rows of dpos_emb" \
        in result["notes"][1]
    unused = run("model", {**DEFAULTS, "vocab_size": 5})
    np.testing.assert_array_equal(values(unused, "dtok_emb")[3:], 0)


def test_gradient_check_passes_and_the_mistake_fails(result):
    assert result["gradcheck"]["ok"] and result["gradcheck"]["gap"] < 1e-6
    mistake = next(note for note in result["notes"] if note.startswith("Mistake"))
    wrong_gap = float(mistake.split("central differences is ")[1].split(",")[0])
    assert wrong_gap > 1e-2  # the skip path carries most of the gradient; dropping it is far off


def test_one_adamw_step_matches_its_first_step_closed_form(result):
    # At step 1 the bias-corrected moments are exactly g and g^2, so the step is lr * g / (|g| + eps):
    # theta_1 = theta_0 * (1 - lr * 0.1) - lr * sign(g) * |g| / (|g| + 1e-8), for a 2-D array like tok_emb.
    tok, grad, after = values(result, "tok_emb"), values(result, "dtok_emb"), values(result, "tok_emb_after")
    lr = DEFAULTS["lr"]
    np.testing.assert_allclose(after, tok * (1 - lr * 0.1) - lr * np.sign(grad), atol=1.5e-4)
    note = result["notes"][-1]
    norm = float(note.split("Global gradient norm ")[1].split(";")[0])
    assert f"scaled by {1 / norm:.4f}" in note  # max_norm 1 and a norm above it
    before, after_loss = (float(x) for x in (note.split("(it was ")[1].rstrip(").").split()[0],
                                             note.split("the loss on this sequence is ")[1].split()[0]))
    assert after_loss < before


def test_post_ln_has_no_skip_mistake_note_and_still_checks():
    result = run("model", {**DEFAULTS, "post_ln": 1})
    assert result["gradcheck"]["ok"]
    assert not any(note.startswith("Mistake") for note in result["notes"])


@pytest.mark.parametrize("overrides, words", [
    ({"num_heads": 3}, "emb_dim (4) must be divisible by num_heads (3)"),
    ({"vocab_size": 9}, "vocab_size must be a whole number from 2 to 8, got 9"),
    ({"post_ln": 2}, "post_ln must be 0 (pre) or 1 (post), got 2"),
    ({"lr": 0}, "model example: lr must be from 0.0001 to 1, got 0"),
    ({"ids": [0, 1, 2, 3]}, "ids must lie in [0, 3) for a vocabulary of 3, got 3"),
    ({"targets": [1, 2, 0, 3]}, "targets must lie in [0, 3) for a vocabulary of 3, got 3"),
])
def test_bad_inputs_name_what_is_wrong(overrides, words):
    with pytest.raises(LayerwiseError) as error:
        run("model", {**DEFAULTS, **overrides})
    assert words in str(error.value)
    assert words in run_json("model", json.dumps({**DEFAULTS, **overrides}))
