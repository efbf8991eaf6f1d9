"""The page "Inside a trained model": what it shows for a prompt is what the engine computes, checked against the
engine's own forward and sampling functions and against computations written out here."""
import json
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from engine import data, model
from engine.examples.fmt import format_number
from engine.generate import generate_text, sampling_distribution
from engine.inside import analysis, panels

from layerwise_build.livewidgets import trained_model

REPO = Path(__file__).resolve().parents[2]

CHECKPOINT = str(trained_model.ensure(REPO, "engine") / trained_model.CHECKPOINT)
PARAMS, CONFIG, VOCAB = analysis.load(CHECKPOINT)


def ask(**request):
    return json.loads(analysis.run_json(json.dumps({"checkpoint": CHECKPOINT, **request})))


@pytest.mark.parametrize("prompt", ["Call", "Call me Ishmael. Some years ago", "a"])
def test_attention_maps_are_the_engines_for_the_prompt(prompt):
    shown = ask(prompt=prompt)
    ids = data.encode(prompt[-CONFIG.seq_len:], VOCAB)
    _, cache = model.forward(PARAMS, ids[None, :], CONFIG)
    expected = model.attention_weights(cache)  # [(1, H, T, T)]
    assert len(shown["attention"]) == CONFIG.num_layers
    for block, weights in zip(shown["attention"], expected):
        np.testing.assert_array_equal(np.array(block), weights[0])
    maps = np.array(shown["attention"])  # (L, H, T, T)
    np.testing.assert_allclose(maps.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    assert (maps[..., np.triu_indices(len(ids), 1)[0], np.triu_indices(len(ids), 1)[1]] == 0).all()
    # the cells' text, in reading order, is each weight formatted by the widgets' own formatter
    texts = re.findall(r"<i>([^<]*)</i>", shown["html"]["attention"])
    assert texts == [format_number(w) for w in maps.reshape(-1)]


@pytest.mark.parametrize("temperature, top_k", [(1.0, 0), (0.5, 0), (2.0, 5), (1.0, 3), (0.8, 1)])
def test_shown_probabilities_are_the_sampling_distribution(temperature, top_k):
    prompt = "Thou art more"
    shown = ask(prompt=prompt, temperature=temperature, top_k=top_k)
    logits, _ = model.forward(PARAMS, data.encode(prompt, VOCAB)[None, :], CONFIG)
    probs = sampling_distribution(logits[0, -1], temperature, top_k or None)
    ranked = sorted(range(len(VOCAB)), key=lambda i: (-probs[i], i))[:10]
    assert shown["next"] == [[VOCAB[i], float(probs[i])] for i in ranked]
    assert [p for _, p in shown["next"]] == sorted((p for _, p in shown["next"]), reverse=True)
    for character, p in shown["next"]:
        assert f'<td class="lw-prob">{format_number(p)}</td>' in shown["html"]["next"]
    if top_k:
        assert sum(p > 0 for _, p in shown["next"]) == min(top_k, 10)


def test_the_residual_stream_is_the_one_the_head_reads():
    prompt = "From fairest"
    shown = ask(prompt=prompt)
    ids = data.encode(prompt, VOCAB)
    stages = analysis.residual_rms(PARAMS, ids, CONFIG)
    assert len(shown["rms"]) == CONFIG.num_layers + 1
    # rebuild the last stage, then check it is what the final norm and the head turn into the forward's logits
    x = PARAMS["tok_emb"][ids] + PARAMS["pos_emb"][:len(ids)]  # (T, d)
    first = np.sqrt((x**2).mean(axis=-1))
    np.testing.assert_allclose(shown["rms"][0], first, rtol=1e-12)
    stream = x[None]
    for i in range(CONFIG.num_layers):
        stream, _ = model.block_forward(stream, PARAMS, i, CONFIG)
    mean, var = stream.mean(-1, keepdims=True), stream.var(-1, keepdims=True)
    normed = (stream - mean) / np.sqrt(var + 1e-5) * PARAMS["lnf_g"] + PARAMS["lnf_b"]
    logits, _ = model.forward(PARAMS, ids[None, :], CONFIG)
    np.testing.assert_allclose(normed @ PARAMS["head_w"] + PARAMS["head_b"], logits, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(shown["rms"][-1], np.sqrt((stream[0]**2).mean(axis=-1)), rtol=1e-12)
    np.testing.assert_allclose(stages[-1], shown["rms"][-1], rtol=0)


def test_prompt_messages():
    V = len(set((REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")))
    assert "&" not in VOCAB and "#" not in VOCAB and len(VOCAB) == V
    unknown = ask(prompt="Call me & #")
    assert unknown == {"error": f"Not in the model's {V} characters: '&' at position 8, '#' at position 10 "
                                "(positions count from 0). Nothing was recomputed."}
    assert ask(prompt="") == {"error": "The prompt is empty: type at least one character for the model to continue."}
    long = ask(prompt="Call me Ishmael. Some years ago")
    assert long["prompt"] == "Call me Ishmael. Some years ago"[-16:] and len(long["tokens"]) == 16
    assert long["note"] == "The model reads at most 16 characters (seq_len): it uses the last 16 of your 31."
    assert ask(prompt="ab")["note"] == ""
    assert ask(prompt="ab", temperature=0)["error"].startswith("sampling_distribution: temperature must be")
    assert ask(action="step", run=1, prompt="ab", seed=-1) == {"error": "The seed must be 0 or more, got -1."}


def test_generation_steps_are_generate_text_one_character_at_a_time():
    prompt, seed = "Thou art", 3
    steps = [ask(action="step", run=77, prompt=prompt, temperature=0.8, top_k=10, seed=seed) for _ in range(20)]
    expected = generate_text(PARAMS, CONFIG, VOCAB, prompt, 20, seed=seed, temperature=0.8, top_k=10)[len(prompt):]
    assert "".join(step["character"] for step in steps) == expected == steps[-1]["text"]
    # each step shows the distribution its character was drawn from: the uncached forward on the text so far
    text = prompt
    for step in steps:
        logits, _ = model.forward(PARAMS, data.encode(text[-CONFIG.seq_len:], VOCAB)[None, :], CONFIG)
        probs = sampling_distribution(logits[0, -1], 0.8, 10)
        np.testing.assert_allclose([p for _, p in step["next"]], sorted(probs, reverse=True)[:10], atol=1e-12)
        assert probs[VOCAB.index(step["character"])] > 0
        text += step["character"]
    fresh = ask(action="step", run=78, prompt=prompt, temperature=0.8, top_k=10, seed=seed)  # a new run restarts
    assert fresh["character"] == expected[0]


def _plain_loss(params, config, ids):
    total = []
    for start in range(0, len(ids) - 1, config.seq_len):
        window = [int(i) for i in ids[start:start + config.seq_len + 1]]
        logits, _ = model.forward(params, np.array([window[:-1]]), config)
        for j, target in enumerate(window[1:]):
            row = logits[0, j].tolist()
            top = max(row)
            total.append(top + math.log(sum(math.exp(z - top) for z in row)) - row[target])
    return sum(total) / len(total)


def test_the_metrics_table_against_a_computation_written_out_here():
    text = data.load_corpus()
    cut = int(len(text) * 0.9)  # the last tenth is held out, as data.split_ids does
    train_text, val_text = text[:cut], text[cut:]
    counts = Counter(train_text)
    unigram = -sum(math.log((counts[ch] + 1) / (len(train_text) + len(VOCAB))) for ch in val_text[1:]) / (
        len(val_text) - 1)
    model_loss = _plain_loss(PARAMS, CONFIG, data.encode(val_text, VOCAB))
    rows = dict(analysis.report(PARAMS, CONFIG, VOCAB))
    assert rows["this model"] == pytest.approx(model_loss, rel=1e-10)
    on_training_text = _plain_loss(PARAMS, CONFIG, data.encode(train_text, VOCAB))
    assert rows["this model, on its own training text"] == pytest.approx(on_training_text, rel=1e-10)
    # the default run reads its text about twice: barely better where it trained (the Inside page says "small")
    assert model_loss - 0.05 < on_training_text < model_loss
    # a full window of context for every target can only help a trained model, and it does
    assert rows["this model, every target with a full window before it"] < model_loss
    assert rows["character frequencies (unigram)"] == pytest.approx(unigram, rel=1e-10)
    assert rows["uniform guess, 1 / V each"] == pytest.approx(math.log(len(set(text))), rel=1e-15)
    table = panels.metrics_table(analysis.report(PARAMS, CONFIG, VOCAB))
    for loss in (model_loss, on_training_text, unigram, math.log(len(set(text)))):
        assert (f"<td>{format_number(loss)}</td><td>{format_number(math.exp(loss))}</td>"
                f"<td>{format_number(loss / math.log(2))}</td>") in table
    assert model_loss < unigram < math.log(len(set(text)))  # the trained model beats both baselines


def test_reader_text_is_escaped_and_blanks_are_visible():
    assert panels.shown("<") == "&lt;" and panels.shown("&") == "&amp;" and panels.shown(" ") == "␣"
    assert panels.shown("\n") == "↵"
    html = panels.controls('say "<b>"', "", 40)
    assert 'value="say &quot;&lt;b&gt;&quot;"' in html
