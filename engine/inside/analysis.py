"""The page "Inside a trained model": what the site's trained model does with a reader's prompt.

``analyse`` runs the engine on the prompt and returns what the page shows (the characters and ids, every block's and
head's attention weights, the residual stream's RMS per position, the next-character distribution) with the panels'
HTML, which ``panels`` makes, so the build's pre-rendered page and the browser's live one are the same markup.
``run_json`` is the worker's entry: the checkpoint is a file (the worker writes the site's copy into Pyodide's file
system), generation keeps one run going between requests so each character costs one cached step.
"""
import json
from functools import lru_cache

import numpy as np

from ..checkpoint import load_checkpoint
from ..data import encode, load_corpus, split_ids
from ..errors import LayerwiseError
from ..evaluation import held_out_loss, sliding_loss, uniform_loss, unigram_loss
from ..generate import generate_steps, sampling_distribution
from ..embedding import token_position_forward
from ..model import attention_weights, block_forward, forward
from ..norms import rmsnorm_forward
from . import panels

SHOWN = 10  # most likely next characters listed


@lru_cache(maxsize=2)
def load(path):
    """``(params, config, vocab)`` of the checkpoint at ``path``, read once."""
    params, config, vocab, _ = load_checkpoint(path)
    return params, config, vocab


def read_prompt(prompt, vocab, seq_len):
    """The ids of the prompt's last ``seq_len`` characters and a note when it was cut; an empty prompt or a
    character outside the vocabulary is a ``LayerwiseError`` naming it."""
    if not prompt:
        raise LayerwiseError("The prompt is empty: type at least one character for the model to continue.")
    index = {ch: i for i, ch in enumerate(vocab)}
    unknown = [(position, ch) for position, ch in enumerate(prompt) if ch not in index]
    if unknown:
        named = ", ".join(f"{ch!r} at position {position}" for position, ch in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise LayerwiseError(f"Not in the model's {len(vocab)} characters: {named}{more} (positions count from 0). "
                             f"Nothing was recomputed.")
    note = ""
    if len(prompt) > seq_len:
        note = (f"The model reads at most {seq_len} characters (seq_len): it uses the last {seq_len} of your "
                f"{len(prompt)}.")
        prompt = prompt[-seq_len:]
    return np.array([index[ch] for ch in prompt]), prompt, note


def residual_rms(params, ids, config):
    """RMS of the residual stream per position ``[(T,)]``: after the embedding, then after each block."""
    x, _ = token_position_forward(ids[None, :], params["tok_emb"], params["pos_emb"])  # (1, T, d)
    stages = [x]
    for i in range(config.num_layers):
        x, _ = block_forward(x, params, i, config)  # (1, T, d)
        stages.append(x)
    ones = np.ones(config.emb_dim)
    return [np.sqrt(rmsnorm_forward(x, ones)[1]["ms"][0, :, 0]) for x in stages]  # the mean square, rooted


def top_characters(probs, vocab, count=SHOWN):
    """The ``count`` most likely ``[character, probability]`` pairs, most likely first (ties by id)."""
    order = np.argsort(-probs, kind="stable")[:count]
    return [[vocab[int(i)], float(probs[i])] for i in order]


def analyse(params, config, vocab, prompt, temperature=1.0, top_k=None):
    """Everything the page shows for ``prompt``, as a JSON-safe dict with the panels' HTML under ``html``."""
    ids, used, note = read_prompt(prompt, vocab, config.seq_len)
    logits, cache = forward(params, ids[None, :], config)  # (1, T, V)
    attention = [weights[0].tolist() for weights in attention_weights(cache)]  # [block][head][query][key]
    rms = [stage.tolist() for stage in residual_rms(params, ids, config)]
    probs = sampling_distribution(logits[0, -1], temperature, top_k)  # (V,) the engine checks both settings
    nxt = top_characters(probs, vocab)
    return {"prompt": used, "note": note, "tokens": [[ch, int(i)] for ch, i in zip(used, ids)],
            "attention": attention, "rms": rms, "next": nxt,
            "html": panels.prompt_panels(used, ids, attention, rms, nxt, config)}


def report(params, config, vocab, text=None):
    """``(name, loss in nats)`` of the model on the held-out tenth of the corpus (read in consecutive windows, then
    with every target given a full window of context), on the text it trained on (consecutive windows, so the gap
    with the first row is memorising), and of the two baselines."""
    train_ids, val_ids = split_ids(encode(load_corpus() if text is None else text, vocab))
    return [("this model", held_out_loss(params, config, val_ids)),
            ("this model, every target with a full window before it", sliding_loss(params, config, val_ids)),
            ("this model, on its own training text", held_out_loss(params, config, train_ids)),
            ("character frequencies (unigram)", unigram_loss(train_ids, val_ids, len(vocab))),
            ("uniform guess, 1 / V each", uniform_loss(len(vocab)))]


_run = {}  # the browser's generation in progress: its id and the steps of generate_steps


def generation_step(params, config, vocab, run, prompt, temperature, top_k, seed):
    """One more character of generation ``run`` (a new run id starts from ``prompt`` with ``seed``): the character,
    the text so far and the distribution it was drawn from."""
    if _run.get("id") != run:
        ids, used, _ = read_prompt(prompt, vocab, config.seq_len)
        steps = generate_steps(params, config, ids, np.random.default_rng(seed), temperature, top_k, kv_cache=True)
        _run.clear()
        _run.update(id=run, steps=steps, text="", prompt=prompt)
    logits, new_id = next(_run["steps"])
    character = vocab[new_id]
    _run["text"] += character
    nxt = top_characters(sampling_distribution(logits, temperature, top_k), vocab)  # what it was drawn from
    return {"character": character, "text": _run["text"], "next": nxt,
            "html": {"next": panels.next_panel(nxt, len(_run["text"]), character),
                     "generated": panels.generated(_run["prompt"], _run["text"])}}


def _settings(request):
    top_k = int(request.get("top_k") or 0)
    return float(request.get("temperature", 1.0)), (top_k or None)


def run_json(request_json):
    """The worker's entry: ``{"action": "analyse" | "step", "checkpoint": path, "prompt", "temperature", "top_k"
    (0 = off), and for a step "run" and "seed"}`` -> the result as JSON, or ``{"error": message}``."""
    request = json.loads(request_json)
    try:
        params, config, vocab = load(request["checkpoint"])
        temperature, top_k = _settings(request)
        if request.get("action") == "step":
            seed = int(request.get("seed", 0))
            if seed < 0:
                raise LayerwiseError(f"The seed must be 0 or more, got {seed}.")
            result = generation_step(params, config, vocab, request["run"], request.get("prompt", ""), temperature,
                                     top_k, seed)
        else:
            result = analyse(params, config, vocab, request.get("prompt", ""), temperature, top_k)
        return json.dumps(result, allow_nan=False)
    except ValueError as error:  # LayerwiseError, and a setting that is not a number
        return json.dumps({"error": str(error)})
