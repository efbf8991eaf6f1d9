"""Generation: extend a prompt one sampled token at a time.

Each step crops the context to the last ``seq_len`` tokens (the model has no position embedding beyond that),
takes the logits of the last position, sharpens or flattens them with the temperature, keeps only the top-k, turns
them into probabilities, keeps only the most likely ids that together reach top-p, and samples one id. With ``kv_cache=True`` each step computes only the newest position
(engine.kv_cache) and gives the same ids.
"""
import math

import numpy as np

from .errors import LayerwiseError, as_array, as_float_array
from .kv_cache import decode_step, prefill
from .model import forward
from .softmax import softmax_forward
from .tokenizer import decode_ids, encode_text


def sampling_distribution(logits, temperature=1.0, top_k=None, top_p=None):
    """The probabilities ``sample_next`` draws from ``(V,)``: ``softmax(logits / temperature)`` over the ``top_k``
    largest logits, then only the most likely ids that together reach ``top_p`` (nucleus sampling), renormalised;
    0 elsewhere."""
    logits = as_float_array("sampling_distribution", "logits", logits).astype(np.float64)  # (V,)
    V = logits.shape[-1]
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not (
            math.isfinite(temperature) and temperature > 0):
        raise LayerwiseError(f"sampling_distribution: temperature must be a finite number > 0, got {temperature!r}")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= V):
        raise LayerwiseError(f"sampling_distribution: top_k must be None or an integer in [1, {V}], got {top_k!r}")
    if top_p is not None and (isinstance(top_p, bool) or not isinstance(top_p, (int, float)) or not 0 < top_p <= 1):
        raise LayerwiseError(f"sampling_distribution: top_p must be None or a number in (0, 1], got {top_p!r}")
    with np.errstate(over="ignore"):
        scaled = logits / temperature  # below 1 sharpens, above 1 flattens
    if not np.isfinite(scaled[np.isfinite(logits)]).all():
        raise LayerwiseError(f"sampling_distribution: temperature {temperature!r} is so small that logits / "
                             "temperature overflows; use a temperature of 1e-3 or more")
    if top_k is not None:
        kth_largest = np.partition(scaled, V - top_k)[V - top_k]
        scaled = np.where(scaled < kth_largest, -np.inf, scaled)  # ties at the threshold stay in
    probs, _ = softmax_forward(scaled)  # (V,)
    if top_p is not None and top_p < 1:  # top_p = 1 keeps every id
        descending = np.sort(probs)[::-1]  # (V,)
        needed = int(np.searchsorted(np.cumsum(descending), top_p))  # the last id needed to reach top_p
        cutoff = descending[min(needed, V - 1)]
        probs = np.where(probs < cutoff, 0.0, probs)  # ties with the last one needed stay in, as with top-k
        probs = probs / np.sum(probs)
    return probs


def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    """One id drawn from :func:`sampling_distribution`."""
    probs = sampling_distribution(logits, temperature, top_k, top_p)  # (V,)
    return int(rng.choice(len(probs), p=probs))


def generate_steps(params, config, ids, rng, temperature=1.0, top_k=None, kv_cache=False, top_p=None,
                   fill_cache=prefill):
    """Endless generation from the prompt ids ``(n,)``: yields ``(logits (V,), id)`` per step, the last position's
    logits and the id drawn from them, so a caller can show each step's distribution as it goes.

    ``kv_cache=True`` keeps every block's keys and values between steps and runs the model on the newest id alone
    while the context fits in ``seq_len``; once the window slides, every step is a full forward again.
    ``fill_cache``: how the cache is made from a context (``kv_cache.prefill_by_steps`` for a model with
    swapped-in layers).
    """
    ids = _prompt_ids(ids)
    past = None  # with the cache on: every block's keys and values of ids[:-1], each (1, H, n - 1, hs)
    while True:  # each new token depends on the previous one: a true sequence
        if past is not None and len(ids) <= config.seq_len:  # the window has not moved: only the newest id is new
            logits, past = decode_step(params, ids[-1:], len(ids) - 1, config, past)  # (1, V)
        else:
            context = np.array(ids[-config.seq_len:])[None, :]  # (1, T) at most seq_len long
            if kv_cache:
                # Rebuilt after every slide: each kept id moved one position down, so its key changed with its position.
                logits, past = fill_cache(params, context, config)  # (1, V)
            else:  # the caches' contents are not read: a model with swapped-in layers (Build your GPT) samples too
                logits = forward(params, context, config)[0][:, -1]  # (1, V)
        ids.append(sample_next(logits[0], rng, temperature, top_k, top_p))
        yield logits[0], ids[-1]


def generate(params, config, ids, max_new_tokens, rng, temperature=1.0, top_k=None, kv_cache=False, top_p=None):
    """The prompt ids ``(n,)`` followed by ``max_new_tokens`` sampled ids (see ``generate_steps``)."""
    if isinstance(max_new_tokens, bool) or not isinstance(max_new_tokens, (int, np.integer)) or max_new_tokens < 0:
        raise LayerwiseError(f"generate: max_new_tokens must be an integer >= 0, got {max_new_tokens!r}")
    ids = _prompt_ids(ids)
    steps = generate_steps(params, config, ids, rng, temperature, top_k, kv_cache, top_p)
    return np.array(ids + [next(steps)[1] for _ in range(max_new_tokens)])


def _prompt_ids(ids):
    array = as_array("generate", "ids", ids)
    if array.size and array.dtype.kind not in "iu":
        raise LayerwiseError(f"generate: the prompt ids must be integers, got an array of {array.dtype}")
    ids = [int(i) for i in array.reshape(-1)]
    if not ids:
        raise LayerwiseError("generate: the prompt is empty; give at least one token to continue from")
    return ids


def generate_text(params, config, vocab, prompt, max_new_tokens, seed=0, temperature=1.0, top_k=None,
                  kv_cache=False, top_p=None):
    """The prompt and its continuation as text; ``vocab`` is the model's characters (a prompt character outside them
    is an error) or its BpeTokenizer."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise LayerwiseError(f"generate_text: the seed must be an integer >= 0, got {seed!r}")
    ids = encode_text(prompt, vocab)
    out = generate(params, config, ids, max_new_tokens, np.random.default_rng(seed), temperature, top_k, kv_cache,
                   top_p)
    return decode_ids(out, vocab)
