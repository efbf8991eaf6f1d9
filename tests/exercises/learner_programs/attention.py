"""The causal mask, one attention head, and masking before the softmax."""
from engine import exercises

from . import Correct, Wrong, changed

CAUSAL_MASK = exercises.get("causal-mask")
LONG = "a long sequence, T = 40, hs = 4 (longer than a small fixed mask)"
HEAD = "3 positions with head size 2"
SCORES = "the 3×3 scores [[1, 2, 3], [0, 0, 0], [3, 2, 1]]"

PROGRAMS = [
    Correct("causal-mask", "two aranges compared", '''
def causal_mask(T):
    return np.arange(T)[:, None] >= np.arange(T)[None, :]
'''),
    Correct("causal-mask", "the complement of the strict upper triangle", '''
def causal_mask(T):
    return ~np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    Correct("causal-mask", "a loop filling each row", '''
def causal_mask(T):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        mask[i, :i + 1] = True
    return mask
'''),
    Correct("causal-mask", "np.tri as picoGPT builds its mask", '''
# after picoGPT's gpt2.py, which adds (1 - np.tri(n)) * -1e10; here the boolean form
def causal_mask(T):
    return np.tri(T, dtype=bool)
'''),
    Wrong("causal-mask", "cut from a fixed 16×16 buffer", '''
_MASK = np.tril(np.ones((16, 16), dtype=bool))

def causal_mask(T):
    return _MASK[:T, :T]
''', "On T = 40, more than a 16×16 or 32×32 buffer holds, `mask` has shape (16, 16) but should have shape (40, 40)."),
    Wrong("causal-mask", "answers written out for the lengths seen", '''
_KNOWN = {T: np.tril(np.ones((T, T), dtype=bool)) for T in (1, 3, 6, 40)}

def causal_mask(T):
    return _KNOWN[T]
''', "`causal_mask` raised KeyError on a T drawn at random between 7 and 39 (seeded)."),
    Wrong("causal-mask", "integers instead of booleans", '''
def causal_mask(T):
    return np.tril(np.ones((T, T), dtype=int))
''', "On T = 3, `mask` has dtype int64 but should have dtype bool."),
    Wrong("causal-mask", "np.tri one below the diagonal", '''
def causal_mask(T):
    return np.tri(T, k=-1, dtype=bool)
''', "On T = 3, `mask` is wrong in 3 of 9 entries.", CAUSAL_MASK.MISTAKES[1].hint),

    Correct("attention-head", "after picoGPT: an additive -1e10 mask", '''
# after picoGPT's gpt2.py attention(): softmax(q @ k.T / sqrt(d) + mask) @ v, with k's last two axes swapped
def attention_head(q, k, v):
    T = q.shape[-2]
    mask = (1 - np.tri(T, dtype=q.dtype)) * -1e10
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + mask
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
    Correct("attention-head", "einsum for both products", '''
def attention_head(q, k, v):
    T, hs = q.shape[-2:]
    scores = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(hs)
    scores = np.where(np.arange(T)[:, None] >= np.arange(T), scores, -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return np.einsum("...ij,...jd->...id", w, v)
'''),
    Correct("attention-head", "one query position at a time over its past", '''
def attention_head(q, k, v):
    T, hs = q.shape[-2:]
    out = np.empty_like(q)
    for i in range(T):
        s = (k[..., :i + 1, :] @ q[..., i, :, None])[..., 0] / np.sqrt(hs)   # (..., i + 1)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        out[..., i, :] = (w[..., None] * v[..., :i + 1, :]).sum(axis=-2)
    return out
'''),
    Wrong("attention-head", "the mask cut from a fixed 16×16 buffer", '''
_MASK = np.tril(np.ones((16, 16), dtype=bool))

def attention_head(q, k, v):
    T, hs = q.shape[-2:]
    scores = np.where(_MASK[:T, :T], q @ np.swapaxes(k, -1, -2) / np.sqrt(hs), -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True) @ v
''', f"`attention_head` raised ValueError on {LONG}."),
    Wrong("attention-head", "scaled by sqrt(T)", '''
def attention_head(q, k, v):
    T = q.shape[-2]
    scores = np.where(np.tri(T, dtype=bool), q @ np.swapaxes(k, -1, -2) / np.sqrt(T), -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True) @ v
''', f"On {HEAD}, `out` is wrong in 4 of 6 entries."),  # row 0 sees only key 0, so its weight is 1 either way
    Wrong("attention-head", "future scores set to 0", '''
def attention_head(q, k, v):
    T, hs = q.shape[-2:]
    scores = np.where(np.tri(T, dtype=bool), q @ np.swapaxes(k, -1, -2) / np.sqrt(hs), 0.0)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True) @ v
''', f"On {HEAD}, `out` is wrong in 4 of 6 entries."),  # the last row has no future to mask
    Wrong("attention-head", "transpose(0, 2, 1) for 3-D keys only", '''
def attention_head(q, k, v):
    T, hs = q.shape[-2:]
    scores = np.where(np.tri(T, dtype=bool), q @ k.transpose(0, 2, 1) / np.sqrt(hs), -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True) @ v
''', f"`attention_head` raised ValueError on {HEAD}."),

    Correct("attention-mask-order", "an additive -1e30 on the future", '''
def causal_weights(scores):
    T = scores.shape[-1]
    scores = scores + np.where(np.tri(T, dtype=bool), 0.0, -1e30)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Correct("attention-mask-order", "masked after the softmax, then renormalised", '''
def causal_weights(scores):
    T = scores.shape[-1]
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True) * np.tri(T)
    return w / w.sum(axis=-1, keepdims=True)
'''),
    Correct("attention-mask-order", "each row's softmax over its own past", '''
def causal_weights(scores):
    T = scores.shape[-1]
    weights = np.zeros_like(scores)
    for i in range(T):
        past = scores[..., i, :i + 1]
        e = np.exp(past - past.max(axis=-1, keepdims=True))
        weights[..., i, :i + 1] = e / e.sum(axis=-1, keepdims=True)
    return weights
'''),
    Wrong("attention-mask-order", "the upper triangle kept", '''
def causal_weights(scores):
    T = scores.shape[-1]
    scores = np.where(np.triu(np.ones((T, T), dtype=bool)), scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', f"On {SCORES}, `weights` is wrong in 8 of 9 entries."),  # row 1 gets (0, 0.5, 0.5): its middle 0.5 is right
    Wrong("attention-mask-order", "the diagonal masked too", '''
def causal_weights(scores):
    T = scores.shape[-1]
    scores = np.where(np.tri(T, k=-1, dtype=bool), scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', f"On {SCORES}, `weights` is wrong in 8 of 9 entries."),  # row 0 is all nan; row 1 (1, 0, 0) keeps its 0
    Wrong("attention-mask-order", "the future written into the caller's scores", '''
def causal_weights(scores):
    T = scores.shape[-1]
    scores[..., ~np.tri(T, dtype=bool)] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''', changed(SCORES, "causal_weights", "scores")),
]
