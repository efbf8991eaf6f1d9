"""Widget kind ``generation``: one sampling step spelled out on editable logits, then text from a trained tiny GPT.

The steps on the reader's logits (temperature, top-k, softmax, many draws) call the engine's
``sampling_distribution``, the probabilities ``sample_next`` draws from; the text comes from ``generate_text`` with
the model that the ``training`` widget's default run produces, so both widgets on the page show the same model.
"""
from functools import lru_cache

import numpy as np

from ..errors import LayerwiseError
from ..generate import generate_text, sampling_distribution
from .fmt import format_compact, format_number, format_short, quoted_line
from .kind import Block, Dim, Kind, Operand, Result
from .training import KIND as TRAINING
from .training import settings_for, short_run

DRAWS = 1000  # samples behind the measured frequencies: enough to show them settle near p (about ±0.015)
PROMPT = "Call me"
NEW_CHARACTERS = 80


@lru_cache(maxsize=32)
def continuation(seed, temperature, top_k):
    """The tiny model's text after PROMPT. Memoised: an edit of the logits leaves it as it was, and 80 forward
    passes cost far more than a frame in the browser."""
    result, _ = short_run(settings_for(**TRAINING.defaults()))  # itself memoised, shared with the training widget
    return generate_text(result.params, result.config, result.vocab, PROMPT, NEW_CHARACTERS, seed=seed,
                         temperature=temperature, top_k=top_k)


def compute(z, temperature, top_k, seed):
    top_k = None if int(top_k) == 0 else int(top_k)
    if seed < 0:
        raise LayerwiseError(f"generation example: seed must be 0 or more, got {seed}")
    temperature, seed = float(temperature), int(seed)
    probs = sampling_distribution(z, temperature, top_k)  # (V,) the engine checks temperature and top_k
    # One call drawing DRAWS ids gives the same ids as DRAWS calls of sample_next on this generator (same uniforms,
    # same cumulative sums; a test checks it), at a thousandth of the cost.
    draws = np.random.default_rng(seed).choice(len(z), size=DRAWS, p=probs)  # (DRAWS,)
    frequencies = np.bincount(draws, minlength=len(z)) / DRAWS  # (V,)
    scaled = z / temperature  # (V,)
    threshold = -np.inf if top_k is None else np.sort(scaled)[-top_k]  # the k-th largest; ties stay in
    kept = np.where(scaled >= threshold, scaled, -np.inf)  # (V,) what top-k leaves for the softmax

    text = continuation(seed, temperature, top_k)
    greedy = continuation(0, 1.0, 1)  # top_k = 1 draws nothing: the seed and temperature do not matter
    notes = (
        f"With temperature {format_compact(temperature)} and top-k {top_k or 'off'}, the tiny model trained by the "
        f"run above continues {quoted_line(PROMPT)}: {quoted_line(text)}",
        f"Greedy (top_k = 1, always the most likely character): {quoted_line(greedy)}",
        f"Frequencies over {DRAWS} draws of sample_next with seed {seed}; they approach p as the draws grow.",
    )
    return Result(
        blocks=(Block("scaled", "z / temperature", scaled, ("V",), "step"),
                Block("kept", "top-k: logits below the k-th largest become -inf", kept, ("V",), "step"),
                Block("probs", "p = softmax(kept)", probs, ("V",)),
                Block("frequencies", f"share of {DRAWS} draws that picked each id", frequencies, ("V",))),
        arithmetic=_spelled_out_probability(kept, probs),
        notes=notes,
    )


def _spelled_out_probability(kept, probs):
    """p[v0] written out: the softmax after subtracting the largest kept logit, as softmax_forward does."""
    if not np.isfinite(kept[0]):
        return "v0 is outside the top-k: p[v0] = exp(-inf) / (...) = 0"
    top = kept[np.isfinite(kept)].max()
    terms = " + ".join(f"exp({format_short(k - top)})" for k in kept if np.isfinite(k))
    return (f"p[v0] = exp({format_short(kept[0] - top)}) / ({terms}) = "
            f"{format_compact(np.exp(kept[0] - top))} / {format_compact(np.exp(kept[np.isfinite(kept)] - top).sum())} "
            f"= {format_number(probs[0])}")


KIND = Kind(
    name="generation",
    title="One sampling step, and text from the trained tiny model",
    description="Edit the logits, the temperature or top-k (0 = off); the text below uses the same settings.",
    dims=(Dim("V", "v", 2, 8),),
    inputs=(
        Operand("z", "logits of the last position", ("V",), [2.0, 1.0, 0.5, -1.0]),
        Operand("temperature", "temperature τ", (), 1.0, bounds=(0.05, 10)),
        Operand("top_k", "top-k: how many logits to keep (0 = all)", (), 0, integer=True),
        Operand("seed", "seed of the random draws", (), 0, integer=True),
    ),
    compute=compute,
)
