"""Widget kind ``generation``: one sampling step spelled out on editable logits, then text from a trained tiny GPT.

The steps on the reader's logits (temperature, top-k, softmax, many draws) call the engine's ``sample_next`` and
``softmax_forward``; the text comes from ``generate_text`` with the model that the ``training`` widget's default run
produces, so both widgets on the page show the same model.
"""
import numpy as np

from ..errors import LayerwiseError
from ..generate import generate_text, sample_next
from ..softmax import softmax_forward
from .fmt import format_compact, format_number, format_short
from .kind import Block, Dim, Kind, Operand, Result
from .training import KIND as TRAINING
from .training import settings_for, short_run

DRAWS = 1000  # samples behind the measured frequencies: enough to show them settle near p (about ±0.015)
PROMPT = "Thou"
NEW_CHARACTERS = 80


def sampling_steps(z, temperature, top_k):
    """What ``sample_next`` computes before it draws, for display: scaled logits, top-k kept, probabilities.

    The steps are the engine's (division, ``np.partition`` threshold, ``softmax_forward``); a test checks that
    ``sample_next``'s draws follow these probabilities.
    """
    scaled = z / temperature  # (V,)
    kept = scaled
    if top_k is not None:
        threshold = np.partition(scaled, len(z) - top_k)[len(z) - top_k]
        kept = np.where(scaled < threshold, -np.inf, scaled)  # (V,)
    probs, _ = softmax_forward(kept)  # (V,)
    return scaled, kept, probs


def compute(z, temperature, top_k, seed):
    top_k = None if int(top_k) == 0 else int(top_k)
    if seed < 0:
        raise LayerwiseError(f"generation example: seed must be 0 or more, got {seed}")
    temperature = float(temperature)
    rng = np.random.default_rng(int(seed))
    draws = [sample_next(z, rng, temperature, top_k) for _ in range(DRAWS)]  # the engine checks temperature, top_k
    frequencies = np.bincount(draws, minlength=len(z)) / DRAWS  # (V,)
    scaled, kept, probs = sampling_steps(z, temperature, top_k)

    result, _ = short_run(settings_for(**TRAINING.defaults()))
    text = generate_text(result.params, result.config, result.vocab, PROMPT, NEW_CHARACTERS, seed=int(seed),
                         temperature=temperature, top_k=top_k)
    greedy = generate_text(result.params, result.config, result.vocab, PROMPT, NEW_CHARACTERS, seed=int(seed),
                           top_k=1)
    arithmetic = _spelled_out_probability(kept, probs)
    notes = (
        f"With temperature {format_compact(temperature)} and top-k {top_k or 'off'}, the tiny model trained by the "
        f"run above continues {PROMPT!r}: {text!r}",
        f"Greedy (top_k = 1, always the most likely character): {greedy!r}",
        f"Frequencies over {DRAWS} draws of sample_next with seed {int(seed)}; they approach p as the draws grow.",
    )
    return Result(
        blocks=(Block("scaled", "z / temperature", scaled, ("V",), "step"),
                Block("kept", "top-k: logits below the k-th largest become -inf", kept, ("V",), "step"),
                Block("probs", "p = softmax(kept)", probs, ("V",)),
                Block("frequencies", f"share of {DRAWS} draws that picked each id", frequencies, ("V",))),
        arithmetic=arithmetic,
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
