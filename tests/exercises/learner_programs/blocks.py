"""A pre-LN block forward and backward, and the whole model's backward chain, composed from the given layers."""
from engine.exercises.block_forward import PARAMS as BLOCK_NAMES

from . import Correct, Wrong, changed, given

BLOCK = "one sequence of 3 positions, d = 4, 2 heads, F = 8"
TINY = "2 sequences of 2 ids out of V = 3, 2 blocks, d = 3, one head, F = 4, 3 positions in pos_emb"
MODEL = ("2 sequences of 3 ids out of V = 5 (so an id repeats), 2 blocks, d = 4, 2 heads, F = 8, 4 positions in "
         "pos_emb")
SIGNATURE = ("x, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b, "
             "num_heads")
GIVEN_BLOCK = given("block-backward")
GIVEN_MODEL = given("model-backward")

PROGRAMS = [
    Correct("block-forward", "the two sublayers as one loop over (norm, branch) pairs", f'''
def block_forward({SIGNATURE}):
    sublayers = (((ln1_g, ln1_b), lambda h: attention_forward(h, wq, bq, wk, bk, wv, bv, wo, bo, num_heads)),
                 ((ln2_g, ln2_b), lambda h: mlp_forward(h, ff1_w, ff1_b, ff2_w, ff2_b)))
    for (gamma, beta), branch in sublayers:
        x = x + branch(layernorm_forward(x, gamma, beta))
    return x
'''),
    Correct("block-forward", "after nanoGPT's Block.forward, with its own LayerNorm", f'''
# after nanoGPT's model.py: x = x + attn(ln_1(x)); x = x + mlp(ln_2(x)), here with a LayerNorm written out
def ln(x, g, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    return g * (x - mu) / np.sqrt(x.var(-1, keepdims=True) + eps) + b

def block_forward({SIGNATURE}):
    x = x + attention_forward(ln(x, ln1_g, ln1_b), wq, bq, wk, bk, wv, bv, wo, bo, num_heads)
    x = x + mlp_forward(ln(x, ln2_g, ln2_b), ff1_w, ff1_b, ff2_w, ff2_b)
    return x
'''),
    Correct("block-forward", "the parameters taken by position", '''
def block_forward(x, *args):
    *p, num_heads = args
    h = x + attention_forward(layernorm_forward(x, *p[0:2]), *p[2:10], num_heads)
    return h + mlp_forward(layernorm_forward(h, *p[10:12]), *p[12:16])
'''),
    # a post-LN block ends in a LayerNorm, whose rows are not the pre-LN block's: every entry moves
    Wrong("block-forward", "post-LN: the norm after each residual add", f'''
def block_forward({SIGNATURE}):
    h = layernorm_forward(x + attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads), ln1_g, ln1_b)
    return layernorm_forward(h + mlp_forward(h, ff1_w, ff1_b, ff2_w, ff2_b), ln2_g, ln2_b)
''', f"On {BLOCK}, `y` is wrong in 12 of 12 entries."),
    Wrong("block-forward", "the residual added into the caller's x", f'''
def block_forward({SIGNATURE}):
    x += attention_forward(layernorm_forward(x, ln1_g, ln1_b), wq, bq, wk, bk, wv, bv, wo, bo, num_heads)
    x += mlp_forward(layernorm_forward(x, ln2_g, ln2_b), ff1_w, ff1_b, ff2_w, ff2_b)
    return x
''', changed(BLOCK, "block_forward", "x")),
    Wrong("block-forward", "attention called without num_heads", f'''
def block_forward({SIGNATURE}):
    h = x + attention_forward(layernorm_forward(x, ln1_g, ln1_b), wq, bq, wk, bk, wv, bv, wo, bo)
    return h + mlp_forward(layernorm_forward(h, ln2_g, ln2_b), ff1_w, ff1_b, ff2_w, ff2_b)
''', f"`block_forward` raised TypeError on {BLOCK}."),

    Correct("block-backward", "every step named, np.add for the residuals", GIVEN_BLOCK + f'''
def block_backward(dy, {SIGNATURE}):
    n1 = layernorm_forward(x, ln1_g, ln1_b)
    h = x + attention_forward(n1, wq, bq, wk, bk, wv, bv, wo, bo, num_heads)
    n2 = layernorm_forward(h, ln2_g, ln2_b)
    dn2, dff1_w, dff1_b, dff2_w, dff2_b = mlp_backward(dy, n2, ff1_w, ff1_b, ff2_w, ff2_b)
    dh_branch, dln2_g, dln2_b = layernorm_backward(dn2, h, ln2_g, ln2_b)
    dh = np.add(dy, dh_branch)
    dn1, dwq, dbq, dwk, dbk, dwv, dbv, dwo, dbo = attention_backward(dh, n1, wq, bq, wk, bk, wv, bv, wo, bo,
                                                                     num_heads)
    dx_branch, dln1_g, dln1_b = layernorm_backward(dn1, x, ln1_g, ln1_b)
    return (np.add(dh, dx_branch), dln1_g, dln1_b, dwq, dbq, dwk, dbk, dwv, dbv, dwo, dbo, dln2_g, dln2_b, dff1_w,
            dff1_b, dff2_w, dff2_b)
'''),
    Correct("block-backward", "micrograd-style: gradients accumulated by name", GIVEN_BLOCK + f'''
NAMES = {BLOCK_NAMES!r}

def block_backward(dy, {SIGNATURE}):
    p = dict(zip(NAMES, (ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b)))
    attn = [p[n] for n in NAMES[2:10]]
    mlp = [p[n] for n in NAMES[12:]]
    n1 = layernorm_forward(x, ln1_g, ln1_b)
    h = x + attention_forward(n1, *attn, num_heads)
    n2 = layernorm_forward(h, ln2_g, ln2_b)
    grad = {{"x": np.zeros_like(x), "h": np.zeros_like(x)}}
    grad["h"] += dy  # the skip
    dn2, *g = mlp_backward(dy, n2, *mlp)
    grad.update(zip(NAMES[12:], g))
    dh, grad["ln2_g"], grad["ln2_b"] = layernorm_backward(dn2, h, ln2_g, ln2_b)
    grad["h"] += dh  # the branch
    grad["x"] += grad["h"]  # the skip
    dn1, *g = attention_backward(grad["h"], n1, *attn, num_heads)
    grad.update(zip(NAMES[2:10], g))
    dx, grad["ln1_g"], grad["ln1_b"] = layernorm_backward(dn1, x, ln1_g, ln1_b)
    grad["x"] += dx  # the branch
    return (grad["x"], *(grad[n] for n in NAMES))
'''),
    Correct("block-backward", "the sublayers as a list walked in reverse", GIVEN_BLOCK + '''
def block_backward(dy, x, *args):
    *p, num_heads = args
    sublayers = [(p[0:2], lambda h, *w: attention_forward(h, *w, num_heads),
                  lambda d, h, *w: attention_backward(d, h, *w, num_heads), p[2:10]),
                 (p[10:12], mlp_forward, mlp_backward, p[12:16])]
    inputs = []
    for norm, forward, _, weights in sublayers:
        inputs.append(x)
        x = x + forward(layernorm_forward(x, *norm), *weights)
    grads = []
    for (norm, _, backward, weights), stream in zip(reversed(sublayers), reversed(inputs)):
        n = layernorm_forward(stream, *norm)
        dn, *dweights = backward(dy, n, *weights)
        dstream, *dnorm = layernorm_backward(dn, stream, *norm)
        grads = dnorm + dweights + grads
        dy = dy + dstream
    return (dy, *grads)
'''),
    # the MLP's skip is dropped this time (not the branch, as in the known mistake): no known mistake gives it
    Wrong("block-backward", "the MLP's skip gradient overwritten by the branch's", GIVEN_BLOCK + f'''
def block_backward(dy, {SIGNATURE}):
    attn, mlp = (wq, bq, wk, bk, wv, bv, wo, bo), (ff1_w, ff1_b, ff2_w, ff2_b)
    n1 = layernorm_forward(x, ln1_g, ln1_b)
    h = x + attention_forward(n1, *attn, num_heads)
    n2 = layernorm_forward(h, ln2_g, ln2_b)
    dh = dy
    dn2, *dmlp = mlp_backward(dy, n2, *mlp)
    dh, dln2_g, dln2_b = layernorm_backward(dn2, h, ln2_g, ln2_b)
    dn1, *dattn = attention_backward(dh, n1, *attn, num_heads)
    dx, dln1_g, dln1_b = layernorm_backward(dn1, x, ln1_g, ln1_b)
    return (dx + dh, dln1_g, dln1_b, *dattn, dln2_g, dln2_b, *dmlp)
''', f"On {BLOCK}, `dx` is wrong in 12 of 12 entries."),
    # dx is right; the second output is dwq (4, 4) where dln1_g (4,) belongs
    Wrong("block-backward", "the attention's gradients before the first norm's", GIVEN_BLOCK + f'''
def block_backward(dy, {SIGNATURE}):
    attn, mlp = (wq, bq, wk, bk, wv, bv, wo, bo), (ff1_w, ff1_b, ff2_w, ff2_b)
    n1 = layernorm_forward(x, ln1_g, ln1_b)
    h = x + attention_forward(n1, *attn, num_heads)
    n2 = layernorm_forward(h, ln2_g, ln2_b)
    dn2, *dmlp = mlp_backward(dy, n2, *mlp)
    dh, dln2_g, dln2_b = layernorm_backward(dn2, h, ln2_g, ln2_b)
    dh = dh + dy
    dn1, *dattn = attention_backward(dh, n1, *attn, num_heads)
    dx, dln1_g, dln1_b = layernorm_backward(dn1, x, ln1_g, ln1_b)
    return (dx + dh, *dattn, dln1_g, dln1_b, dln2_g, dln2_b, *dmlp)
''', f"On {BLOCK}, `dln1_g` has shape (4, 4) but should have shape (4,)."),
    Wrong("block-backward", "the skip added into the caller's dy", GIVEN_BLOCK + f'''
def block_backward(dy, {SIGNATURE}):
    attn, mlp = (wq, bq, wk, bk, wv, bv, wo, bo), (ff1_w, ff1_b, ff2_w, ff2_b)
    n1 = layernorm_forward(x, ln1_g, ln1_b)
    h = x + attention_forward(n1, *attn, num_heads)
    n2 = layernorm_forward(h, ln2_g, ln2_b)
    dn2, *dmlp = mlp_backward(dy, n2, *mlp)
    dh, dln2_g, dln2_b = layernorm_backward(dn2, h, ln2_g, ln2_b)
    dy += dh
    dn1, *dattn = attention_backward(dy, n1, *attn, num_heads)
    dx, dln1_g, dln1_b = layernorm_backward(dn1, x, ln1_g, ln1_b)
    return (dx + dy, dln1_g, dln1_b, *dattn, dln2_g, dln2_b, *dmlp)
''', changed(BLOCK, "block_backward", "dy")),
]

MODEL_SIGNATURE = ("dlogits, ids, tok_emb, pos_emb, ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, "
                   "ff1_w, ff1_b, ff2_w, ff2_b, lnf_g, lnf_b, head_w, head_b, num_heads")

PROGRAMS += [
    Correct("model-backward", "parameters and gradients in dicts by name", GIVEN_MODEL + f'''
NAMES = {BLOCK_NAMES!r}

def model_backward(dlogits, ids, tok_emb, pos_emb, *args):
    *stacked, lnf_g, lnf_b, head_w, head_b, num_heads = args
    blocks = [dict(zip(NAMES, (p[l] for p in stacked))) for l in range(stacked[0].shape[0])]
    B, T = ids.shape
    x = tok_emb[ids] + pos_emb[:T]
    inputs = []
    for block in blocks:
        inputs.append(x)
        x = block_forward(x, *block.values(), num_heads)
    n = layernorm_forward(x, lnf_g, lnf_b)
    rows = dlogits.reshape(B * T, -1)
    dhead_w = n.reshape(B * T, -1).T @ rows
    dhead_b = rows.sum(axis=0)
    dx, dlnf_g, dlnf_b = layernorm_backward(dlogits @ head_w.T, x, lnf_g, lnf_b)
    grads = [None] * len(blocks)
    for l in range(len(blocks) - 1, -1, -1):
        dx, *g = block_backward(dx, inputs[l], *blocks[l].values(), num_heads)
        grads[l] = dict(zip(NAMES, g))
    dtok = np.zeros_like(tok_emb)
    for b in range(B):
        for t in range(T):
            dtok[ids[b, t]] += dx[b, t]
    dpos = np.zeros_like(pos_emb)
    dpos[:T] = dx.sum(axis=0)
    return (dtok, dpos, *(np.stack([g[n] for g in grads]) for n in NAMES), dlnf_g, dlnf_b, dhead_w, dhead_b)
'''),
    Correct("model-backward", "the embedding's gradient as a one-hot product", GIVEN_MODEL + f'''
def model_backward({MODEL_SIGNATURE}):
    stacked = [ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b]
    V, T = tok_emb.shape[0], ids.shape[1]
    xs = [tok_emb[ids] + pos_emb[:T]]
    for l in range(len(ln1_g)):
        xs.append(block_forward(xs[-1], *[p[l] for p in stacked], num_heads))
    n = layernorm_forward(xs[-1], lnf_g, lnf_b)
    dn = np.einsum("btv,dv->btd", dlogits, head_w)
    dx, dlnf_g, dlnf_b = layernorm_backward(dn, xs.pop(), lnf_g, lnf_b)
    per_block = []
    while xs:  # xs now holds the blocks' inputs, the last block's on top
        l = len(xs) - 1
        dx, *g = block_backward(dx, xs.pop(), *[p[l] for p in stacked], num_heads)
        per_block.insert(0, g)
    one_hot = (ids[..., None] == np.arange(V)).astype(float)  # (B, T, V)
    dtok = np.einsum("btv,btd->vd", one_hot, dx)
    dpos = np.concatenate([dx.sum(axis=0), np.zeros((pos_emb.shape[0] - T, pos_emb.shape[1]))])
    return (dtok, dpos, *[np.array(g) for g in zip(*per_block)], dlnf_g, dlnf_b,
            np.einsum("btd,btv->dv", n, dlogits), dlogits.sum(axis=(0, 1)))
'''),
    Correct("model-backward", "after llm.c's gpt2_backward: activations kept, then the calls reversed",
            GIVEN_MODEL + f'''
# after llm.c's gpt2_backward: the forward's activations are kept, then every call is reversed, last layer first
def model_backward({MODEL_SIGNATURE}):
    params = [ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b]
    L, (B, T) = ln1_g.shape[0], ids.shape
    residual = np.empty((L + 1, B, T, tok_emb.shape[1]))
    residual[0] = tok_emb[ids] + pos_emb[:T]
    for l in range(L):
        residual[l + 1] = block_forward(residual[l], *(p[l] for p in params), num_heads)
    lnf = layernorm_forward(residual[L], lnf_g, lnf_b)
    dresidual, dlnf_g, dlnf_b = layernorm_backward(dlogits @ head_w.T, residual[L], lnf_g, lnf_b)
    dparams = [np.zeros_like(p) for p in params]
    for l in range(L - 1, -1, -1):
        dresidual, *grads = block_backward(dresidual, residual[l], *(p[l] for p in params), num_heads)
        for dp, g in zip(dparams, grads):
            dp[l] += g
    dwte = np.zeros_like(tok_emb)
    np.add.at(dwte, ids.ravel(), dresidual.reshape(B * T, -1))
    dwpe = np.zeros_like(pos_emb)
    dwpe[:T] += dresidual.sum(axis=0)
    dhead_w = np.tensordot(lnf, dlogits, axes=([0, 1], [0, 1]))
    return (dwte, dwpe, *dparams, dlnf_g, dlnf_b, dhead_w, dlogits.sum(axis=(0, 1)))
'''),
    Wrong("model-backward", "the positions' gradient not padded to pos_emb's rows", GIVEN_MODEL + f'''
def model_backward({MODEL_SIGNATURE}):
    stacked = (ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b)
    xs = [tok_emb[ids] + pos_emb[:ids.shape[1]]]
    for l in range(len(ln1_g)):
        xs.append(block_forward(xs[-1], *(p[l] for p in stacked), num_heads))
    n = layernorm_forward(xs[-1], lnf_g, lnf_b)
    dx, dlnf_g, dlnf_b = layernorm_backward(dlogits @ head_w.T, xs[-1], lnf_g, lnf_b)
    grads = []
    for l in reversed(range(len(ln1_g))):
        dx, *g = block_backward(dx, xs[l], *(p[l] for p in stacked), num_heads)
        grads.insert(0, g)
    dtok = np.zeros_like(tok_emb)
    np.add.at(dtok, ids, dx)
    return (dtok, dx.sum(axis=0), *map(np.stack, zip(*grads)), dlnf_g, dlnf_b,
            np.einsum("btd,btv->dv", n, dlogits), dlogits.sum(axis=(0, 1)))
''', f"On {TINY}, `dpos_emb` has shape (2, 3) but should have shape (3, 3)."),
    # the ids are [[0, 2], [1, 0]]: every row of dtok_emb collects a wrong gradient
    Wrong("model-backward", "each block taken back at its output instead of its input", GIVEN_MODEL + f'''
def model_backward({MODEL_SIGNATURE}):
    stacked = (ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b)
    T = ids.shape[1]
    xs = [tok_emb[ids] + pos_emb[:T]]
    for l in range(len(ln1_g)):
        xs.append(block_forward(xs[-1], *(p[l] for p in stacked), num_heads))
    n = layernorm_forward(xs[-1], lnf_g, lnf_b)
    dx, dlnf_g, dlnf_b = layernorm_backward(dlogits @ head_w.T, xs[-1], lnf_g, lnf_b)
    grads = []
    for l in reversed(range(len(ln1_g))):
        dx, *g = block_backward(dx, xs[l + 1], *(p[l] for p in stacked), num_heads)
        grads.insert(0, g)
    dtok, dpos = np.zeros_like(tok_emb), np.zeros_like(pos_emb)
    np.add.at(dtok, ids, dx)
    dpos[:T] = dx.sum(axis=0)
    return (dtok, dpos, *map(np.stack, zip(*grads)), dlnf_g, dlnf_b, np.einsum("btd,btv->dv", n, dlogits),
            dlogits.sum(axis=(0, 1)))
''', f"On {TINY}, `dtok_emb` is wrong in 9 of 9 entries."),
    # right where B = T (the first case); with B = 2 and T = 3, pos_emb[:2] (2, 4) does not broadcast against the
    # (2, 3, 4) token rows
    Wrong("model-backward", "the sequence length read from the batch axis", GIVEN_MODEL + f'''
def model_backward({MODEL_SIGNATURE}):
    stacked = (ln1_g, ln1_b, wq, bq, wk, bk, wv, bv, wo, bo, ln2_g, ln2_b, ff1_w, ff1_b, ff2_w, ff2_b)
    T = ids.shape[0]
    xs = [tok_emb[ids] + pos_emb[:T]]
    for l in range(len(ln1_g)):
        xs.append(block_forward(xs[-1], *(p[l] for p in stacked), num_heads))
    n = layernorm_forward(xs[-1], lnf_g, lnf_b)
    dx, dlnf_g, dlnf_b = layernorm_backward(dlogits @ head_w.T, xs[-1], lnf_g, lnf_b)
    grads = []
    for l in reversed(range(len(ln1_g))):
        dx, *g = block_backward(dx, xs[l], *(p[l] for p in stacked), num_heads)
        grads.insert(0, g)
    dtok, dpos = np.zeros_like(tok_emb), np.zeros_like(pos_emb)
    np.add.at(dtok, ids, dx)
    dpos[:T] = dx.sum(axis=0)
    return (dtok, dpos, *map(np.stack, zip(*grads)), dlnf_g, dlnf_b, np.einsum("btd,btv->dv", n, dlogits),
            dlogits.sum(axis=(0, 1)))
''', f"`model_backward` raised ValueError on {MODEL}."),
]
