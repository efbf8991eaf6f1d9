"""The modern block's exercises: rotary positions, SwiGLU, shared key/value heads, a byte-pair merge, and the
attention parameters with shared heads."""
from engine import exercises

from . import Correct, Wrong, changed

GQA = exercises.get("gqa-forward")
MODERN = exercises.get("modern-block-forward")
PAIR = "one pair (3, 4) at positions 0, 1, 2"
ROPE_BATCH = "a random batch of shape (2, 5, 6) with base 100"
ROWS = "the page's two rows"
TWO_HEADS = "two key heads for four query heads, shape (1, 2, 3, 2)"
BYTES = "' the the' as bytes, merging t h into 256"
SMALL = "multi-query: d 24, 2 heads, 1 key/value head"

PROGRAMS = [
    Correct("rope-forward", "complex numbers", '''
def rope_forward(x, base=10000.0):
    T, hs = x.shape[-2:]
    theta = base ** (-np.arange(hs // 2) * 2.0 / hs)
    z = (x[..., 0::2] + 1j * x[..., 1::2]) * np.exp(1j * np.arange(T)[:, None] * theta)
    return np.stack([z.real, z.imag], axis=-1).reshape(x.shape)
'''),
    Correct("rope-forward", "a 2x2 rotation matrix per pair", '''
def rope_forward(x, base=10000.0):
    T, hs = x.shape[-2:]
    y = np.zeros_like(x)
    for i in range(hs // 2):
        for t in range(T):
            a = t * base ** (-2 * i / hs)
            R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            y[..., t, 2 * i:2 * i + 2] = x[..., t, 2 * i:2 * i + 2] @ R.T
    return y
'''),
    Correct("rope-forward", "cos and sin repeated to every channel, neighbours swapped", '''
def rope_forward(x, base=10000.0):
    T, hs = x.shape[-2:]
    angle = np.outer(np.arange(T), 1.0 / base ** (np.arange(0, hs, 2) / hs))
    cos, sin = np.repeat(np.cos(angle), 2, axis=-1), np.repeat(np.sin(angle), 2, axis=-1)
    swapped = np.empty_like(x)
    swapped[..., 0::2], swapped[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    return x * cos + swapped * sin
'''),
    # by hand: with hs = 2 the one frequency is 1 either way, so the first case passes; in the second (hs = 6) pairs
    # 1 and 2 turn at the wrong rate at positions 1 to 4: 2 batches x 4 positions x 4 channels = 32 of 60
    Wrong("rope-forward", "frequencies base^(-i/hs), the 2 forgotten", '''
def rope_forward(x, base=10000.0):
    T, hs = x.shape[-2:]
    angle = np.arange(T)[:, None] * base ** (-np.arange(hs // 2) / hs)
    y = np.empty_like(x)
    y[..., 0::2] = x[..., 0::2] * np.cos(angle) - x[..., 1::2] * np.sin(angle)
    y[..., 1::2] = x[..., 0::2] * np.sin(angle) + x[..., 1::2] * np.cos(angle)
    return y
''', f"On {ROPE_BATCH}, `y` is wrong in 32 of 60 entries."),
    # by hand: at position 0 (3, 4) becomes (-4, 3); at 1 and 2 sin and cos trade places: all 6 entries differ
    Wrong("rope-forward", "cos and sin swapped", '''
def rope_forward(x, base=10000.0):
    T, hs = x.shape[-2:]
    angle = np.arange(T)[:, None] * base ** (-np.arange(0, hs, 2) / hs)
    y = np.empty_like(x)
    y[..., 0::2] = x[..., 0::2] * np.sin(angle) - x[..., 1::2] * np.cos(angle)
    y[..., 1::2] = x[..., 0::2] * np.cos(angle) + x[..., 1::2] * np.sin(angle)
    return y
''', f"On {PAIR}, `y` is wrong in 6 of 6 entries."),
    Wrong("rope-forward", "x turned in place", '''
def rope_forward(x, base=10000.0):
    T, hs = x.shape[-2:]
    angle = np.arange(T)[:, None] * base ** (-np.arange(0, hs, 2) / hs)
    even, odd = x[..., 0::2].copy(), x[..., 1::2].copy()
    x[..., 0::2], x[..., 1::2] = even * np.cos(angle) - odd * np.sin(angle), even * np.sin(angle) + odd * np.cos(angle)
    return x
''', changed(PAIR, "rope_forward", "x")),

    Correct("swiglu-forward", "sigmoid written with logaddexp", '''
def swiglu_forward(x, w_gate, w_up, w_down):
    g = x @ w_gate
    return (g * np.exp(-np.logaddexp(0.0, -g)) * (x @ w_up)) @ w_down
'''),
    Correct("swiglu-forward", "einsum", '''
def swiglu_forward(x, w_gate, w_up, w_down):
    g = np.einsum("...d,df->...f", x, w_gate)
    u = np.einsum("...d,df->...f", x, w_up)
    return np.einsum("...f,fd->...d", g / (1 + np.exp(-g)) * u, w_down)
'''),
    Correct("swiglu-forward", "a loop over the rows", '''
def swiglu_forward(x, w_gate, w_up, w_down):
    rows = x.reshape(-1, x.shape[-1])
    out = []
    for row in rows:
        g, u = row @ w_gate, row @ w_up
        out.append((g * (1 / (1 + np.exp(-g))) * u) @ w_down)
    return np.array(out).reshape(x.shape[:-1] + (w_down.shape[1],))
'''),
    # by hand, row t0: gate (1, -1, -3), up (2, 0, -1); row t1: gate (0.5, 2, 1), up (1, 2.5, 2). silu of the
    # product gives hidden (silu 2, 0, silu 3) and (silu 0.5, silu 5, silu 2): every y = (h0 + h2, h1 + h2) differs
    Wrong("swiglu-forward", "silu of the product", '''
def swiglu_forward(x, w_gate, w_up, w_down):
    h = (x @ w_gate) * (x @ w_up)
    return (h / (1 + np.exp(-h))) @ w_down
''', f"On {ROWS}, `y` is wrong in 4 of 4 entries."),
    # by hand, row t0: tanh(1) * 2 = 1.52 for 1.46, tanh(-3) * -1 = 0.995 for 0.142; row t1 differs as well
    Wrong("swiglu-forward", "tanh as the gate", '''
def swiglu_forward(x, w_gate, w_up, w_down):
    return (np.tanh(x @ w_gate) * (x @ w_up)) @ w_down
''', f"On {ROWS}, `y` is wrong in 4 of 4 entries."),
    # by hand: ReLU gives hidden (2, 0, 0) and (0.5, 5, 2), so y = (2, 0) and (2.5, 7) against (1.60, 0.14), (1.77, 5.87)
    Wrong("swiglu-forward", "ReLU as the gate (ReGLU)", '''
def swiglu_forward(x, w_gate, w_up, w_down):
    return (np.maximum(x @ w_gate, 0) * (x @ w_up)) @ w_down
''', f"On {ROWS}, `y` is wrong in 4 of 4 entries."),

    Correct("gqa-forward", "an index per query head", '''
def repeat_kv(kv, num_heads):
    return kv[:, np.arange(num_heads) // (num_heads // kv.shape[1])]
'''),
    Correct("gqa-forward", "broadcast, then reshape", '''
def repeat_kv(kv, num_heads):
    B, G, T, hs = kv.shape
    return np.broadcast_to(kv[:, :, None], (B, G, num_heads // G, T, hs)).reshape(B, num_heads, T, hs).copy()
'''),
    Correct("gqa-forward", "each key head concatenated group times", '''
def repeat_kv(kv, num_heads):
    group = num_heads // kv.shape[1]
    return np.concatenate([kv[:, [g]] for g in range(kv.shape[1]) for _ in range(group)], axis=1)
'''),
    # by hand: heads read 0, 1, 0, 1 instead of 0, 0, 1, 1, so heads 1 and 2 are wrong: 2 x 3 x 2 = 12 of 24,
    # the output of the known mistake np.tile
    Wrong("gqa-forward", "query head h reads key head h % G", '''
def repeat_kv(kv, num_heads):
    return kv[:, [h % kv.shape[1] for h in range(num_heads)]]
''', f"On {TWO_HEADS}, `expanded` is wrong in 12 of 24 entries.", GQA.MISTAKES[0].hint),
    Wrong("gqa-forward", "repeated along time", '''
def repeat_kv(kv, num_heads):
    return np.repeat(kv, num_heads // kv.shape[1], axis=2)
''', f"On {TWO_HEADS}, `expanded` has shape (1, 2, 6, 2) but should have shape (1, 4, 3, 2)."),
    # by hand: every query head gets the mean of the two key heads, which equals neither (random values): 24 of 24
    Wrong("gqa-forward", "the key heads averaged, then shared by all", '''
def repeat_kv(kv, num_heads):
    return np.repeat(kv.mean(axis=1, keepdims=True), num_heads, axis=1)
''', f"On {TWO_HEADS}, `expanded` is wrong in 24 of 24 entries."),

    Correct("tokenizer-forward", "a for loop with a skip flag", '''
def merge_ids(ids, pair, new_id):
    out, skip = [], False
    for i, token in enumerate(ids):
        if skip:
            skip = False
        elif i + 1 < len(ids) and (token, ids[i + 1]) == tuple(pair):
            out.append(new_id)
            skip = True
        else:
            out.append(token)
    return np.array(out, dtype=np.int64)
'''),
    Correct("tokenizer-forward", "recursion", '''
def merge_ids(ids, pair, new_id):
    ids = list(ids)
    if len(ids) < 2:
        return np.array(ids, dtype=np.int64)
    if ids[0] == pair[0] and ids[1] == pair[1]:
        return np.concatenate([[new_id], merge_ids(ids[2:], pair, new_id)]).astype(np.int64)
    return np.concatenate([[ids[0]], merge_ids(ids[1:], pair, new_id)]).astype(np.int64)
'''),
    Correct("tokenizer-forward", "a list consumed from the front", '''
def merge_ids(ids, pair, new_id):
    rest, out = [int(i) for i in ids], []
    while rest:
        if rest[:2] == [pair[0], pair[1]]:
            out.append(new_id)
            rest = rest[2:]
        else:
            out.append(rest.pop(0))
    return np.array(out, dtype=np.int64)
'''),
    # by hand: only the first " th" becomes 256, so 7 ids come back instead of 6
    Wrong("tokenizer-forward", "only the first occurrence merged", '''
def merge_ids(ids, pair, new_id):
    ids = list(ids)
    for i in range(len(ids) - 1):
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            return np.array(ids[:i] + [new_id] + ids[i + 2:], dtype=np.int64)
    return np.array(ids, dtype=np.int64)
''', f"On {BYTES}, `merged` has shape (7,) but should have shape (6,)."),
    Wrong("tokenizer-forward", "the pair looked for the other way round", '''
def merge_ids(ids, pair, new_id):
    merged, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[1] and ids[i + 1] == pair[0]:
            merged.append(new_id)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return np.array(merged, dtype=np.int64)
''', f"On {BYTES}, `merged` has shape (8,) but should have shape (6,)."),  # no "h t" in " the the"
    Wrong("tokenizer-forward", "floats returned", '''
def merge_ids(ids, pair, new_id):
    merged, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            merged.append(new_id)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return np.array(merged, dtype=float)
''', f"On {BYTES}, `merged` has dtype float64 but should have dtype int64."),

    Correct("modern-block-forward", "four projections, matrix plus bias each", '''
def attention_params(d, num_heads, kv_heads):
    hs = d // num_heads
    q = o = d * d + d
    k = v = d * kv_heads * hs + kv_heads * hs
    return q + k + v + o
'''),
    Correct("modern-block-forward", "from the shapes", '''
import math

def attention_params(d, num_heads, kv_heads):
    kv = kv_heads * (d // num_heads)
    shapes = [(d, d), (d,), (d, kv), (kv,), (d, kv), (kv,), (d, d), (d,)]
    return sum(math.prod(s) for s in shapes)
'''),
    Correct("modern-block-forward", "factored", '''
def attention_params(d, num_heads, kv_heads):
    return 2 * (d + 1) * (d + kv_heads * d // num_heads)
'''),
    # by hand: hs from G gives keys d wide: 2 (576 + 24) + 2 (576 + 24) = 2400 for 1800, the known mistake's output
    Wrong("modern-block-forward", "head size divided by the key heads", '''
def attention_params(d, num_heads, kv_heads):
    hs = d // kv_heads
    return 2 * (d * d + d) + 2 * (d * kv_heads * hs + kv_heads * hs)
''', f"On {SMALL}, `count` is 2400 but should be 1800.", MODERN.MISTAKES[0].hint),
    # by hand: 576 + 24 for q, 2 (288 + 12) for k and v: 1200
    Wrong("modern-block-forward", "the output projection forgotten", '''
def attention_params(d, num_heads, kv_heads):
    kv = kv_heads * (d // num_heads)
    return d * d + d + 2 * (d * kv + kv)
''', f"On {SMALL}, `count` is 1200 but should be 1800."),
    Wrong("modern-block-forward", "a float", '''
def attention_params(d, num_heads, kv_heads):
    kv = kv_heads * d / num_heads
    return 2 * (d * d + d) + 2 * (d * kv + kv)
''', f"On {SMALL}, `count` has dtype float64 but should have dtype int64."),
]
