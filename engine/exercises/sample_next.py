"""Exercise: the next character's probabilities under temperature, top-k and top-p, and one draw from them."""
import numpy as np

from ..generate import sampling_distribution as _sampling_distribution
from ._domain import Domain
from ._spec import Mistake, generator, normal, random_case

TITLE = "Sampling the next character"
PAGE = "model/training.md"
ORDER = 4
KIND = "write"
FUNCTION = "sample_next"
OUTPUTS = ("probs", "next_id")
STATEMENT = """\
Write `sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None)` returning `(probs, next_id)`: the
probabilities the next character is drawn from and the id drawn. `logits` is one row of float64 scores, shape
`(V,)`; `rng` is a `numpy.random.Generator`. In this order: divide the logits by `temperature` (> 0); with `top_k`
(an integer from 1 to V), set to \\(-\\infty\\) every logit below the k-th largest (logits tied with it stay); take
the softmax; with `top_p` (a number in (0, 1]), sort the probabilities from largest to smallest, find the first
place where their running sum reaches `top_p`, set to 0 every probability below the one found there (ties with it
stay) and divide the rest by their sum. `None` turns top-k or top-p off, and `top_p = 1` keeps every id. Then draw
`next_id` with one call `rng.choice(V, p=probs)`, so the tests can replay the same draw from the same generator.
Logits may be in the thousands. `probs` is float64 and sums to 1; leave `logits` unchanged."""
SOLUTION = '''\
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    """logits: (V,) float64; rng: a numpy Generator. Return (probs (V,), next_id)."""
    z = logits / temperature
    if top_k is not None:
        kth = np.sort(z)[-top_k]
        z = np.where(z < kth, -np.inf, z)
    probs = np.exp(z - np.max(z))
    probs = probs / np.sum(probs)
    if top_p is not None and top_p < 1:
        descending = np.sort(probs)[::-1]
        reached = np.searchsorted(np.cumsum(descending), top_p)
        probs = np.where(probs < descending[min(reached, len(probs) - 1)], 0.0, probs)
        probs = probs / np.sum(probs)
    next_id = rng.choice(len(probs), p=probs)
    return probs, next_id
'''
HINTS = (
    "Temperature, then top-k on the logits, then softmax, then top-p on the probabilities, then one draw.",
    "For top-k compare with a value, not with positions: the k-th largest logit is `np.sort(z)[-top_k]`, and every "
    "logit equal to it stays.",
    "For top-p, `np.searchsorted(np.cumsum(descending), top_p)` is the first place where the running sum reaches "
    "top_p: the probability there is the smallest one kept.",
)
MISTAKES = (
    Mistake("top-k keeps exactly k positions", "        kth = np.sort(z)[-top_k]\n        z = np.where(z < kth, -np.inf, z)\n",
            "        keep = np.argsort(z)[-top_k:]\n        z = np.where(np.isin(np.arange(len(z)), keep), z, -np.inf)\n",
            "Keeping the k positions a sort puts last breaks ties at the k-th largest logit arbitrarily: compare with "
            "its value instead, so every logit tied with it stays."),
    Mistake("temperature multiplies", "z = logits / temperature", "z = logits * temperature",
            "Divide the logits by the temperature: a temperature below 1 must sharpen the distribution, above 1 "
            "flatten it."),
    Mistake("top-p stops before reaching p", "descending[min(reached, len(probs) - 1)]", "descending[max(reached - 1, 0)]",
            "Keep the id at which the running sum reaches top_p as well: the kept ids are the fewest most likely ones "
            "whose probabilities add up to at least top_p."),
    Mistake("the most likely id instead of a draw", "next_id = rng.choice(len(probs), p=probs)",
            "next_id = np.argmax(probs)",
            "Always taking the most likely id is greedy decoding: draw the id from probs with "
            "`rng.choice(V, p=probs)`."),
    Mistake("a uniform draw", "rng.choice(len(probs), p=probs)", "rng.choice(len(probs))",
            "Without `p=probs`, `rng.choice` draws every id equally often: pass the probabilities."),
)


def reference(logits, rng, temperature=1.0, top_k=None, top_p=None):
    probs = _sampling_distribution(logits, temperature, top_k, top_p)  # (V,)
    return probs, rng.choice(len(probs), p=probs)


def _logits_of(*probabilities):
    """Logits whose softmax is ``probabilities``: a case whose probabilities can be read off."""
    return [float(np.log(p)) for p in probabilities]


def _case(label, seed, logits, temperature=1.0, top_k=None, top_p=None):
    return random_case(label, seed=seed, logits=logits, rng=generator(), temperature=temperature, top_k=top_k,
                       top_p=top_p)


CASES = (
    _case("logits (2, 1, 0, -1) with temperature 1 and no top-k or top-p", 401, [2.0, 1.0, 0.0, -1.0]),
    _case("the same logits at temperature 0.5", 402, [2.0, 1.0, 0.0, -1.0], temperature=0.5),
    _case("the same logits at temperature 2", 403, [2.0, 1.0, 0.0, -1.0], temperature=2.0),
    _case("logits (2, 1, 0, -1) with top_k = 2", 404, [2.0, 1.0, 0.0, -1.0], top_k=2),
    _case("logits (0, 1, 1, 3) with top_k = 2: the tie at the 2nd largest keeps three", 405, [0.0, 1.0, 1.0, 3.0],
          top_k=2),
    _case("probabilities (0.5, 0.3, 0.15, 0.05) with top_p = 0.7", 406, _logits_of(0.5, 0.3, 0.15, 0.05), top_p=0.7),
    _case("probabilities (0.2, 0.4, 0.2, 0.2) with top_p = 0.5: the ties at the cut stay", 407,
          _logits_of(0.2, 0.4, 0.2, 0.2), top_p=0.5),
    _case("probabilities (0.15, 0.05, 0.5, 0.3) with top_k = 3, then top_p = 0.8", 408,
          _logits_of(0.15, 0.05, 0.5, 0.3), top_k=3, top_p=0.8),
    _case("top_p = 1 with temperature 0.8: every id kept", 409, _logits_of(0.1, 0.6, 0.3), temperature=0.8,
          top_p=1.0),
    random_case("65 random logits with temperature 0.8 and top_k = 10 (the page's samples)", seed=410,
                logits=normal(65, scale=2.0), rng=generator(), temperature=0.8, top_k=10, top_p=None),
    random_case("65 random logits with temperature 1.2 and top_p = 0.9", seed=411, logits=normal(65, scale=2.0),
                rng=generator(), temperature=1.2, top_k=None, top_p=0.9),
    random_case("65 random logits with top_k = 20 and top_p = 0.6", seed=412, logits=normal(65, scale=1.0),
                rng=generator(), temperature=1.0, top_k=20, top_p=0.6),
    _case("logits in the thousands (1000, 999, 998, 0, -1000)", 413, [1000.0, 999.0, 998.0, 0.0, -1000.0]),
    _case("top_k = 1: only the largest logit, drawn every time", 414, [0.5, 2.5, -1.0], top_k=1),
)


def _drawn_row(d):
    """One row of V logits (plain values tie often: top-k's and top-p's ties), each setting on, off or at an end."""
    return {"logits": d.normal(d.V, scale=(1.0, 5.0, 1e3), offset=(0.0, 1e3)), "rng": d.generator(),
            "temperature": d.pick(1.0, 0.5, 2.0, 0.05), "top_k": d.pick(None, 1, max(1, d.V // 2), d.V),
            "top_p": d.pick(None, 1.0, 0.9, 0.5, 0.01)}


# The statement: one row of any V (GPT-2's 50,257 at most), logits in the thousands, temperature > 0, top-k from 1
# to V or off, top-p in (0, 1] or off.
DOMAIN = Domain(sizes={"V": range(1, 50_258)}, make=_drawn_row)
