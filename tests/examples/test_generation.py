"""The generation kind: probabilities worked out with math.exp, draws that follow them, text from the trained model."""
import json
import math

import numpy as np
import pytest

from engine.data import load_corpus
from engine.generate import sample_next
from engine.examples import KINDS, run, run_json
from engine.examples.generation import DRAWS, NEW_CHARACTERS, PROMPT
from results import raw_values

DEFAULTS = KINDS["generation"].defaults()


def softmax_by_hand(logits):
    exps = [math.exp(z) for z in logits]
    return [e / sum(exps) for e in exps]


def test_defaults_are_a_plain_softmax():
    result = run("generation", DEFAULTS)
    expected = softmax_by_hand([2.0, 1.0, 0.5, -1.0])
    np.testing.assert_allclose(raw_values(result, "probs"), expected, rtol=1e-12)
    assert result["arithmetic"] == ("p[v0] = exp(0) / (exp(0) + exp(-1) + exp(-1.5) + exp(-3)) = 1 / 1.6408 = "
                                    f"{expected[0]:.4f}")


def test_temperature_and_top_k():
    result = run("generation", {**DEFAULTS, "temperature": 0.5, "top_k": 2})
    assert raw_values(result, "scaled") == [4.0, 2.0, 1.0, -2.0]
    assert raw_values(result, "kept") == [4.0, 2.0, None, None]  # -inf is shown as non-finite
    p0 = 1 / (1 + math.exp(-2))  # e^4 / (e^4 + e^2)
    np.testing.assert_allclose(raw_values(result, "probs"), [p0, 1 - p0, 0, 0], rtol=1e-12)
    assert raw_values(result, "frequencies")[2:] == [0, 0]  # excluded ids are never drawn
    assert result["nonfinite"] == ["kept"]


@pytest.mark.parametrize("temperature, top_k", [(1.0, 0), (2.0, 3), (0.7, 0)])
def test_draws_follow_the_probabilities(temperature, top_k):
    result = run("generation", {**DEFAULTS, "temperature": temperature, "top_k": top_k})
    p, freq = np.array(raw_values(result, "probs")), np.array(raw_values(result, "frequencies"))
    sigma = np.sqrt(p * (1 - p) / DRAWS)
    assert np.all(np.abs(freq - p) <= 4 * sigma + 1e-12)  # binomial counts within four standard deviations


@pytest.mark.parametrize("temperature, top_k, seed", [(1.0, 0, 0), (0.7, 2, 5), (2.0, 3, 11)])
def test_frequencies_count_the_very_draws_sample_next_makes(temperature, top_k, seed):
    inputs = {**DEFAULTS, "temperature": temperature, "top_k": top_k, "seed": seed}
    rng = np.random.default_rng(seed)
    draws = [sample_next(np.array(DEFAULTS["z"]), rng, temperature, top_k or None) for _ in range(DRAWS)]
    expected = np.bincount(draws, minlength=len(DEFAULTS["z"])) / DRAWS
    assert raw_values(run("generation", inputs), "frequencies") == expected.tolist()


def unquoted(note):
    """The text a note quotes on one line, “…” with its line breaks written " / " (stanzas " // "), as it was."""
    quoted = note.split(": ", 1)[1]
    assert quoted[0] == "\u201c" and quoted[-1] == "\u201d" and "\\n" not in quoted, quoted  # no repr's backslashes
    return quoted[1:-1].replace(" // ", "\n\n").replace(" / ", "\n")


def test_text_comes_from_the_trained_tiny_model():
    result = run("generation", DEFAULTS)
    text, greedy = (unquoted(note) for note in result["notes"][:2])
    for sample in (text, greedy):
        assert sample.startswith(PROMPT) and len(sample) == len(PROMPT) + NEW_CHARACTERS
        assert set(sample) <= set(load_corpus())
    # greedy decoding is deterministic: the seed of the draws does not change it
    other = run("generation", {**DEFAULTS, "seed": 5})
    assert other["notes"][1] == result["notes"][1]


@pytest.mark.parametrize("overrides, words", [
    ({"temperature": 0}, "temperature must be from 0.05 to 10, got 0"),
    ({"top_k": 5}, "top_k must be None or an integer in [1, 4], got 5"),
    ({"seed": -1}, "seed must be 0 or more"),
])
def test_bad_inputs_reach_the_reader(overrides, words):
    assert words in json.loads(run_json("generation", json.dumps({**DEFAULTS, **overrides})))["error"]
