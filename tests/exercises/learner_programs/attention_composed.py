"""The attention head's backward, and multi-head attention forward and backward (the four projections, the split
into heads and the merge), written on top of the given head."""
from . import Correct, Wrong, changed, given

HEAD = "3 positions with head size 2"
LONG = "a long sequence, T = 40, hs = 4 (longer than a small fixed mask)"
GIVEN_HEAD = given("attention-head-backward")

PROGRAMS = [
    Correct("attention-head-backward", "einsum throughout, the softmax's Jacobian built in full", GIVEN_HEAD + '''
def attention_head_backward(dout, q, k, v):
    T, hs = q.shape[-2:]
    s = np.einsum("...id,...jd->...ij", q, k) / np.sqrt(hs)
    s = np.where(np.arange(T)[:, None] >= np.arange(T), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    dp = np.einsum("...id,...jd->...ij", dout, v)
    jac = p[..., :, None] * np.eye(T) - p[..., :, None] * p[..., None, :]  # (..., T, T, T): row i's Jacobian
    ds = np.einsum("...ij,...ijk->...ik", dp, jac) / np.sqrt(hs)
    return (np.einsum("...ij,...jd->...id", ds, k), np.einsum("...ij,...id->...jd", ds, q),
            np.einsum("...ij,...id->...jd", p, dout))
'''),
    Correct("attention-head-backward", "one query row at a time over its past, micrograd-style", GIVEN_HEAD + '''
def attention_head_backward(dout, q, k, v):
    T, hs = q.shape[-2:]
    dq, dk, dv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    for i in range(T):
        s = (q[..., i:i + 1, :] @ np.swapaxes(k[..., :i + 1, :], -1, -2))[..., 0, :] / np.sqrt(hs)  # (..., i+1)
        w = np.exp(s - s.max(axis=-1, keepdims=True))
        w = w / w.sum(axis=-1, keepdims=True)
        dv[..., :i + 1, :] += w[..., :, None] * dout[..., i:i + 1, :]
        dw = (v[..., :i + 1, :] * dout[..., i:i + 1, :]).sum(axis=-1)
        ds = w * (dw - (dw * w).sum(axis=-1, keepdims=True)) / np.sqrt(hs)
        dq[..., i, :] = (ds[..., :, None] * k[..., :i + 1, :]).sum(axis=-2)
        dk[..., :i + 1, :] += ds[..., :, None] * q[..., i:i + 1, :]
    return dq, dk, dv
'''),
    Correct("attention-head-backward", "after llm.c's attention_backward: an additive mask, scale folded into q",
            GIVEN_HEAD + '''
# after llm.c's attention_backward: the softmax's local derivative p_i (indicator - p_j), here vectorised
def attention_head_backward(dout, q, k, v):
    T, hs = q.shape[-2:]
    scale = 1.0 / np.sqrt(hs)
    s = (q * scale) @ np.swapaxes(k, -1, -2) + np.triu(np.full((T, T), -1e30), k=1)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    dp = dout @ np.swapaxes(v, -1, -2)
    ds = p * dp - p * np.sum(p * dp, axis=-1, keepdims=True)
    return scale * (ds @ k), scale * (np.swapaxes(ds, -1, -2) @ q), np.swapaxes(p, -1, -2) @ dout
'''),
    # rows 0 and 1 have a future, which now gets weight; the last row has none, so only its dq stays right
    Wrong("attention-head-backward", "future scores set to 0 instead of -inf", GIVEN_HEAD + '''
def attention_head_backward(dout, q, k, v):
    T, hs = q.shape[-2:]
    s = np.where(np.tri(T, dtype=bool), q @ np.swapaxes(k, -1, -2) / np.sqrt(hs), 0.0)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    dp = dout @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True)) / np.sqrt(hs)
    return ds @ k, np.swapaxes(ds, -1, -2) @ q, np.swapaxes(p, -1, -2) @ dout
''', f"On {HEAD}, `dq` is wrong in 4 of 6 entries."),
    Wrong("attention-head-backward", "the mask cut from a fixed 16×16 buffer", GIVEN_HEAD + '''
_MASK = np.tril(np.ones((16, 16), dtype=bool))

def attention_head_backward(dout, q, k, v):
    T, hs = q.shape[-2:]
    s = np.where(_MASK[:T, :T], q @ np.swapaxes(k, -1, -2) / np.sqrt(hs), -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    dp = dout @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True)) / np.sqrt(hs)
    return ds @ k, np.swapaxes(ds, -1, -2) @ q, np.swapaxes(p, -1, -2) @ dout
''', f"`attention_head_backward` raised ValueError on {LONG}."),
    # right gradients (the scale moved onto q), but the caller's q is scaled afterwards
    Wrong("attention-head-backward", "q scaled in place to save a division", GIVEN_HEAD + '''
def attention_head_backward(dout, q, k, v):
    T, hs = q.shape[-2:]
    q *= 1.0 / np.sqrt(hs)
    s = np.where(np.tri(T, dtype=bool), q @ np.swapaxes(k, -1, -2), -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    dp = dout @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True))
    return ds @ k / np.sqrt(hs), np.swapaxes(ds, -1, -2) @ q, np.swapaxes(p, -1, -2) @ dout
''', changed(HEAD, "attention_head_backward", "q")),
]

IDENTITY = "one sequence of 2 positions, d = 2, 2 heads of size 1, every projection the identity"
GIVEN_FORWARD = given("attention-backward")

PROGRAMS += [
    Correct("attention-forward", "one head at a time on its own columns of the weights", '''
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    hs = x.shape[-1] // num_heads
    outs = []
    for h in range(num_heads):
        cols = slice(h * hs, (h + 1) * hs)
        q, k, v = (x @ w[:, cols] + b[cols] for w, b in ((wq, bq), (wk, bk), (wv, bv)))
        outs.append(attention_head(q, k, v))  # (B, T, hs)
    return np.concatenate(outs, axis=-1) @ wo + bo
'''),
    Correct("attention-forward", "after nanoGPT's CausalSelfAttention: one fused qkv projection", '''
# after nanoGPT's model.py: c_attn makes q, k, v at once, .view(B, T, nh, hs).transpose(1, 2), and back
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, C = x.shape
    qkv = x @ np.concatenate([wq, wk, wv], axis=1) + np.concatenate([bq, bk, bv])
    q, k, v = (np.swapaxes(a.reshape(B, T, num_heads, C // num_heads), 1, 2) for a in np.split(qkv, 3, axis=-1))
    y = np.swapaxes(attention_head(q, k, v), 1, 2).reshape(B, T, C)
    return y @ wo + bo
'''),
    Correct("attention-forward", "einsum with the weights seen as (d, H, hs)", '''
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    d = x.shape[-1]
    H, hs = num_heads, d // num_heads
    q, k, v = (np.einsum("btd,dhe->bhte", x, w.reshape(d, H, hs)) + b.reshape(H, 1, hs)
               for w, b in ((wq, bq), (wk, bk), (wv, bv)))
    return np.einsum("bhte,hed->btd", attention_head(q, k, v), wo.reshape(H, hs, d)) + bo
'''),
    Wrong("attention-forward", "the head size as a true division", '''
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, d = x.shape
    hs = d / num_heads
    q, k, v = ((x @ w + b).reshape(B, T, num_heads, hs).transpose(0, 2, 1, 3)
               for w, b in ((wq, bq), (wk, bk), (wv, bv)))
    return attention_head(q, k, v).transpose(0, 2, 1, 3).reshape(B, T, d) @ wo + bo
''', f"`attention_forward` raised TypeError on {IDENTITY}."),
    # the head already divides by sqrt(hs); with hs = 1 the second division changes nothing, and position 0 attends
    # only to itself whatever its scores, so its 6 entries in each of the 2 sequences stay right
    Wrong("attention-forward", "queries scaled before the head scales them again", '''
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, d = x.shape
    hs = d // num_heads
    q, k, v = ((x @ w + b).reshape(B, T, num_heads, hs).transpose(0, 2, 1, 3)
               for w, b in ((wq, bq), (wk, bk), (wv, bv)))
    heads = attention_head(q / np.sqrt(hs), k, v)
    return heads.transpose(0, 2, 1, 3).reshape(B, T, d) @ wo + bo
''', "On a batch of shape (2, 4, 6) with 3 heads of size 2, `y` is wrong in 36 of 48 entries."),
    # one head over all d = 2 channels: row 1's weights are softmax([2, 5] / sqrt 2) = (0.107, 0.893), so it gets
    # (1.893, 0.893) instead of the two heads' (1.881, 0.731); row 0 is v_0 either way
    Wrong("attention-forward", "num_heads ignored: one head over all channels", '''
def attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    return attention_head(x @ wq + bq, x @ wk + bk, x @ wv + bv) @ wo + bo
''', f"On {IDENTITY}, `y` is wrong in 2 of 4 entries."),

    Correct("attention-backward", "one head at a time on its own columns, dx accumulated", GIVEN_FORWARD + '''
def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    d = x.shape[-1]
    hs = d // num_heads
    flat = x.reshape(-1, d)
    dx = np.zeros_like(x)
    grads = [np.zeros_like(a) for a in (wq, bq, wk, bk, wv, bv)]
    outs = []
    dmerged = dy @ wo.T
    for h in range(num_heads):
        cols = slice(h * hs, (h + 1) * hs)
        q, k, v = (x @ w[:, cols] + b[cols] for w, b in ((wq, bq), (wk, bk), (wv, bv)))
        outs.append(attention_head(q, k, v))
        for i, g in enumerate(attention_head_backward(dmerged[..., cols], q, k, v)):
            grads[2 * i][:, cols] = flat.T @ g.reshape(-1, hs)
            grads[2 * i + 1][cols] = g.reshape(-1, hs).sum(axis=0)
            dx += g @ (wq, wk, wv)[i][:, cols].T
    merged = np.concatenate(outs, axis=-1)
    dwo = merged.reshape(-1, d).T @ dy.reshape(-1, d)
    return (dx, *grads, dwo, dy.reshape(-1, d).sum(axis=0))
'''),
    Correct("attention-backward", "after nanoGPT: the fused qkv projection differentiated at once", GIVEN_FORWARD + '''
def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, C = x.shape
    nh, hs = num_heads, C // num_heads
    w_qkv = np.concatenate([wq, wk, wv], axis=1)  # (C, 3C)
    qkv = x @ w_qkv + np.concatenate([bq, bk, bv])
    q, k, v = (np.swapaxes(a.reshape(B, T, nh, hs), 1, 2) for a in np.split(qkv, 3, axis=-1))
    y = np.swapaxes(attention_head(q, k, v), 1, 2).reshape(B, T, C)
    dhead = np.swapaxes((dy @ wo.T).reshape(B, T, nh, hs), 1, 2)
    dqkv = np.concatenate([np.swapaxes(g, 1, 2).reshape(B, T, C)
                           for g in attention_head_backward(dhead, q, k, v)], axis=-1)  # (B, T, 3C)
    dw = np.einsum("btc,btk->ck", x, dqkv)
    db = dqkv.sum(axis=(0, 1))
    dwq, dwk, dwv = np.split(dw, 3, axis=1)
    dbq, dbk, dbv = np.split(db, 3)
    return (dqkv @ w_qkv.T, dwq, dbq, dwk, dbk, dwv, dbv, np.einsum("btc,btk->ck", y, dy), dy.sum(axis=(0, 1)))
'''),
    Correct("attention-backward", "einsum with the weights seen as (d, H, hs)", GIVEN_FORWARD + '''
def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    d = x.shape[-1]
    H, hs = num_heads, d // num_heads
    proj = [(w.reshape(d, H, hs), b.reshape(H, 1, hs)) for w, b in ((wq, bq), (wk, bk), (wv, bv))]
    q, k, v = (np.einsum("btd,dhe->bhte", x, w) + b for w, b in proj)
    heads = attention_head(q, k, v)  # (B, H, T, hs)
    wo3 = wo.reshape(H, hs, d)
    dwo = np.einsum("bhte,btd->hed", heads, dy).reshape(d, d)
    dq, dk, dv = attention_head_backward(np.einsum("btd,hed->bhte", dy, wo3), q, k, v)
    out = [np.zeros_like(x)]
    for g, (w, _) in zip((dq, dk, dv), proj):
        out[0] = out[0] + np.einsum("bhte,dhe->btd", g, w)
        out += [np.einsum("btd,bhte->dhe", x, g).reshape(d, d), g.sum(axis=(0, 2)).reshape(d)]
    return (*out, dwo, dy.sum(axis=(0, 1)))
'''),
    # the known mistake's numbers: each assignment replaces the one before, so only the values' path survives
    Wrong("attention-backward", "dx assigned once per projection", GIVEN_FORWARD + '''
def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, d = x.shape
    split = lambda a: a.reshape(B, T, num_heads, d // num_heads).transpose(0, 2, 1, 3)
    merge = lambda a: a.transpose(0, 2, 1, 3).reshape(B, T, d)
    q, k, v = split(x @ wq + bq), split(x @ wk + bk), split(x @ wv + bv)
    grads = []
    for g, w in zip(attention_head_backward(split(dy @ wo.T), q, k, v), (wq, wk, wv)):
        g = merge(g)
        dx = g @ w.T
        grads += [np.einsum("btd,bte->de", x, g), g.sum(axis=(0, 1))]
    dwo = np.einsum("btd,bte->de", merge(attention_head(q, k, v)), dy)
    return (dx, *grads, dwo, dy.sum(axis=(0, 1)))
''', f"On {IDENTITY}, `dx` is wrong in 4 of 4 entries.", "x feeds the queries, the keys and the values, so its "
      "gradient is the sum of the three paths: dx = dq @ wq.T + dk @ wk.T + dv @ wv.T."),
    Wrong("attention-backward", "dbo summed over the batch axis only", GIVEN_FORWARD + '''
def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, d = x.shape
    split = lambda a: a.reshape(B, T, num_heads, d // num_heads).transpose(0, 2, 1, 3)
    merge = lambda a: a.transpose(0, 2, 1, 3).reshape(B, T, d)
    q, k, v = split(x @ wq + bq), split(x @ wk + bk), split(x @ wv + bv)
    dq, dk, dv = (merge(g) for g in attention_head_backward(split(dy @ wo.T), q, k, v))
    dx = dq @ wq.T + dk @ wk.T + dv @ wv.T
    dw = [np.einsum("btd,bte->de", x, g) for g in (dq, dk, dv)]
    dwo = np.einsum("btd,bte->de", merge(attention_head(q, k, v)), dy)
    return dx, dw[0], dq.sum(axis=(0, 1)), dw[1], dk.sum(axis=(0, 1)), dw[2], dv.sum(axis=(0, 1)), dwo, dy.sum(axis=0)
''', f"On {IDENTITY}, `dbo` has shape (2, 2) but should have shape (2,)."),
    Wrong("attention-backward", "x.T for the weights' gradients, as for 2-D inputs", GIVEN_FORWARD + '''
def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    B, T, d = x.shape
    split = lambda a: a.reshape(B, T, num_heads, d // num_heads).transpose(0, 2, 1, 3)
    merge = lambda a: a.transpose(0, 2, 1, 3).reshape(B, T, d)
    q, k, v = split(x @ wq + bq), split(x @ wk + bk), split(x @ wv + bv)
    dq, dk, dv = (merge(g) for g in attention_head_backward(split(dy @ wo.T), q, k, v))
    dx = dq @ wq.T + dk @ wk.T + dv @ wv.T
    dwo = merge(attention_head(q, k, v)).T @ dy
    return (dx, x.T @ dq, dq.sum(axis=(0, 1)), x.T @ dk, dk.sum(axis=(0, 1)), x.T @ dv, dv.sum(axis=(0, 1)), dwo,
            dy.sum(axis=(0, 1)))
''', f"`attention_backward` raised ValueError on {IDENTITY}."),
]
