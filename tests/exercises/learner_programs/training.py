"""The learning-rate schedule, clipping by the global norm, one AdamW step, sampling the next character and one
decode step with a KV cache."""
from . import Correct, Wrong

BY_HAND = "g1 = [2, 1], g2 = [[2, 4]] (global norm 5) with max_norm 1"
FIRST_STEP = "the first step (t = 1) of a 1×2 weight and a bias, lr 0.01, weight_decay 0.1"
MODEL_LIKE = "step t = 3 of parameters like the model's (matrices, biases, a LayerNorm gain)"
IDENTITY = ("d = 2, one head, identity projections, one cached position: keys (0, 1) and the new (1, 0)")
FROM_FULL = "position 5 of a random sequence (1, 6, 8), 2 heads, the cache made by the full attention"

PROGRAMS = [
    Correct("learning-rate", "nanoGPT's get_lr", '''
import math

# after nanoGPT's train.py get_lr, with min_lr a tenth of the rate and the warm-up (it + 1) / warmup_iters
def learning_rate(step, base_lr, warmup_steps, total_steps):
    min_lr = base_lr / 10
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    if step > total_steps:
        return min_lr
    decay_ratio = (step - warmup_steps) / (total_steps - warmup_steps)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (base_lr - min_lr)
'''),
    Correct("learning-rate", "the progress clipped with np.clip", '''
def learning_rate(step, base_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return float(base_lr * (step + 1) / warmup_steps)
    q = np.clip((step - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    return float(base_lr * (0.1 + 0.45 * (1.0 + np.cos(np.pi * q))))
'''),
    Correct("learning-rate", "interpolation between the two ends", '''
import math

def learning_rate(step, base_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return (step + 1) / warmup_steps * base_lr
    q = min(1.0, max(0.0, (step - warmup_steps) / (total_steps - warmup_steps)))
    w = (1.0 + math.cos(math.pi * q)) / 2.0      # 1 at the end of warm-up, 0 at total_steps
    return w * base_lr + (1.0 - w) * 0.1 * base_lr
'''),
    Wrong("learning-rate", "warm-up over warmup_steps - 1 steps from 0", '''
import math

def learning_rate(step, base_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return base_lr * step / (warmup_steps - 1)
    q = min(1.0, (step - warmup_steps) / (total_steps - warmup_steps))
    return base_lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * q)))
''', "On step 0 of a 10-step warm-up, 100 steps, base 0.001, `lr` is 0.0000 but should be 0.0001.",
          "Step 0 would get a learning rate of 0 and do nothing: the warm-up uses (step + 1) / warmup_steps."),
    Wrong("learning-rate", "a linear decay", '''
def learning_rate(step, base_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    q = min(1.0, (step - warmup_steps) / (total_steps - warmup_steps))
    return base_lr * (0.1 + 0.9 * (1.0 - q))
''', "On step 99, the last step before the end, `lr` is 0.000110 but should be 0.000100."),
    # q = 89/90; linear: 0.001 * (0.1 + 0.01); cosine: 0.001 * (0.1 + 0.9 * 0.5 * (1 - cos(pi / 90))) = 0.0001003
    Wrong("learning-rate", "answers written out for the steps seen", '''
_SEEN = {0: 1e-4, 4: 5e-4, 9: 1e-3, 10: 1e-3, 55: 5.5e-4, 100: 1e-4, 150: 1e-4}

def learning_rate(step, base_lr, warmup_steps, total_steps):
    return _SEEN[step]
''', "`learning_rate` raised KeyError on step 99, the last step before the end."),

    Correct("clip-gradients", "in place, as an optimiser clips", '''
import math

def clip_gradients(g1, g2, max_norm):
    total = math.sqrt(float(np.sum(g1 ** 2) + np.sum(g2 ** 2)))
    if total > max_norm:
        g1 *= max_norm / total
        g2 *= max_norm / total
    return g1, g2
'''),
    Correct("clip-gradients", "the norm of both flattened together", '''
def clip_gradients(g1, g2, max_norm):
    norm = np.linalg.norm(np.concatenate([g1.ravel(), g2.ravel()]))
    scale = max_norm / norm if norm > max_norm else 1.0
    return g1 * scale, g2 * scale
'''),
    Correct("clip-gradients", "np.hypot of the two norms", '''
def clip_gradients(g1, g2, max_norm):
    norm = np.hypot(np.linalg.norm(g1), np.linalg.norm(g2))
    if norm <= max_norm:
        return g1.copy(), g2.copy()
    return g1 * (max_norm / norm), g2 * (max_norm / norm)
'''),
    Wrong("clip-gradients", "np.clip on every entry", '''
def clip_gradients(g1, g2, max_norm):
    return np.clip(g1, -max_norm, max_norm), np.clip(g2, -max_norm, max_norm)
''', f"On {BY_HAND}, `g1_clipped` is wrong in 2 of 2 entries."),  # (1, 1) for (0.4, 0.2); no known mistake gives it
    Wrong("clip-gradients", "the squared norm as the norm", '''
def clip_gradients(g1, g2, max_norm):
    squared = np.sum(g1 ** 2) + np.sum(g2 ** 2)
    scale = min(1.0, max_norm / squared)
    return g1 * scale, g2 * scale
''', f"On {BY_HAND}, `g1_clipped` is wrong in 2 of 2 entries."),  # scale 1/25 instead of 1/5
    Wrong("clip-gradients", "only g1 scaled", '''
def clip_gradients(g1, g2, max_norm):
    norm = np.sqrt(np.sum(g1 ** 2) + np.sum(g2 ** 2))
    return g1 * min(1.0, max_norm / norm), g2
''', f"On {BY_HAND}, `g2_clipped` is wrong in 2 of 2 entries."),
    Wrong("clip-gradients", "a Python float norm of zero", '''
import math

def clip_gradients(g1, g2, max_norm):
    norm = math.sqrt(float(np.sum(g1 ** 2) + np.sum(g2 ** 2)))
    scale = min(1.0, max_norm / norm)
    return g1 * scale, g2 * scale
''', "`clip_gradients` raised ZeroDivisionError on two zero gradients (norm 0)."),
    Correct("adamw-step", "in place, after PyTorch's single-tensor AdamW", '''
import math

# after torch.optim.adamw's _single_tensor_adamw: decay the parameter first, then lerp the first moment, and
# divide by sqrt(v) / sqrt(bias_correction2) + eps with the step size lr / bias_correction1
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    bias_correction1 = 1 - beta1 ** t
    bias_correction2 = 1 - beta2 ** t
    for name, param in params.items():
        grad = grads[name]
        if param.ndim == 2:
            param *= 1 - lr * weight_decay
        m[name] += (grad - m[name]) * (1 - beta1)
        v[name] *= beta2
        v[name] += (1 - beta2) * grad * grad
        denom = np.sqrt(v[name]) / math.sqrt(bias_correction2) + eps
        param -= (lr / bias_correction1) * m[name] / denom
    return params, m, v
'''),
    Correct("adamw-step", "Kingma and Ba's step size with eps scaled to match", '''
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    # Adam's Algorithm 1 folds both corrections into one step size; eps must then be scaled by sqrt(1 - beta2**t)
    # to stay the same update as sqrt(v_hat) + eps
    root = np.sqrt(1 - beta2 ** t)
    alpha = lr * root / (1 - beta1 ** t)
    out_p, out_m, out_v = {}, {}, {}
    for k in params:
        out_m[k] = beta1 * m[k] + (1 - beta1) * grads[k]
        out_v[k] = beta2 * v[k] + (1 - beta2) * grads[k] ** 2
        shrink = lr * weight_decay * params[k] if params[k].ndim == 2 else 0.0
        out_p[k] = params[k] - shrink - alpha * out_m[k] / (np.sqrt(out_v[k]) + eps * root)
    return out_p, out_m, out_v
'''),
    Correct("adamw-step", "three dict comprehensions", '''
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    m = {k: beta1 * m[k] + (1 - beta1) * g for k, g in grads.items()}
    v = {k: beta2 * v[k] + (1 - beta2) * np.square(g) for k, g in grads.items()}
    lam = {k: (weight_decay if len(p.shape) == 2 else 0) for k, p in params.items()}
    params = {k: p - lr * (m[k] / (1 - beta1 ** t) / (np.sqrt(v[k] / (1 - beta2 ** t)) + eps) + lam[k] * p)
              for k, p in params.items()}
    return params, m, v
'''),
    Wrong("adamw-step", "decay chosen by the name, not the shape", '''
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    new_p, new_m, new_v = {}, {}, {}
    for name, p in params.items():
        decay = weight_decay if name == "w" or name.endswith("_w") else 0.0
        new_m[name] = beta1 * m[name] + (1 - beta1) * grads[name]
        new_v[name] = beta2 * v[name] + (1 - beta2) * grads[name] ** 2
        step = new_m[name] / (1 - beta1 ** t) / (np.sqrt(new_v[name] / (1 - beta2 ** t)) + eps)
        new_p[name] = p - lr * (step + decay * p)
    return new_p, new_m, new_v
''', f"On {MODEL_LIKE}, `params[\"tok_emb\"]` is wrong in 24 of 24 entries."),
    # the embedding table has two axes but no "_w" in its name: it misses lr * weight_decay * p = 3e-4 * p
    Wrong("adamw-step", "the corrected moments kept as the new moments", '''
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    new_p, new_m, new_v = {}, {}, {}
    for name, p in params.items():
        new_m[name] = (beta1 * m[name] + (1 - beta1) * grads[name]) / (1 - beta1 ** t)
        new_v[name] = (beta2 * v[name] + (1 - beta2) * grads[name] ** 2) / (1 - beta2 ** t)
        decay = weight_decay if p.ndim == 2 else 0.0
        new_p[name] = p - lr * (new_m[name] / (np.sqrt(new_v[name]) + eps) + decay * p)
    return new_p, new_m, new_v
''', f"On {FIRST_STEP}, `m[\"w\"]` is wrong in 2 of 2 entries."),
    # the step is right, but m comes back as g = (0.1, -0.3) instead of (1 - 0.9) g = (0.01, -0.03)
    Wrong("adamw-step", "corrections with t - 1, as if t counted from 0", '''
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    new_p, new_m, new_v = {}, {}, {}
    for name, p in params.items():
        new_m[name] = beta1 * m[name] + (1 - beta1) * grads[name]
        new_v[name] = beta2 * v[name] + (1 - beta2) * grads[name] ** 2
        m_hat = new_m[name] / (1 - beta1 ** (t - 1))
        v_hat = new_v[name] / (1 - beta2 ** (t - 1))
        decay = weight_decay if p.ndim == 2 else 0.0
        new_p[name] = p - lr * (m_hat / (np.sqrt(v_hat) + eps) + decay * p)
    return new_p, new_m, new_v
''', f"On {FIRST_STEP}, `params[\"w\"]` is wrong in 2 of 2 entries."),
    # at t = 1 both corrections divide by 1 - 1 = 0: inf / inf is nan in both entries
    Correct("sample-next", "nanoGPT's generate, with a nucleus cut and an inverse-CDF draw", '''
# after nanoGPT's GPT.generate: scale by the temperature, crop to the top k (v[-1] is the k-th largest), softmax;
# then a nucleus cut by value, and the draw rng.choice makes: one uniform number looked up in the running sum
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    logits = logits / temperature
    if top_k is not None:
        v = np.sort(logits)[::-1][:top_k]
        logits[logits < v[-1]] = -np.inf
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    if top_p is not None and top_p < 1:
        order = np.argsort(-probs, kind="stable")
        before = int(np.sum(np.cumsum(probs[order]) < top_p))   # ids whose running sum is still short of top_p
        probs[probs < probs[order[min(before, len(probs) - 1)]]] = 0.0
        probs /= probs.sum()
    u = rng.random()
    cdf = np.cumsum(probs)
    return probs, int(np.searchsorted(cdf / cdf[-1], u, side="right"))
'''),
    Correct("sample-next", "a plain loop for the nucleus", '''
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    z = np.array(logits, dtype=np.float64) / temperature
    V = len(z)
    if top_k:
        threshold = sorted(z, reverse=True)[top_k - 1]
        z = np.array([x if x >= threshold else -np.inf for x in z])
    e = np.exp(z - np.max(z))
    p = e / e.sum()
    if top_p is not None and top_p != 1:
        total, smallest = 0.0, None
        for q in sorted(p, reverse=True):
            total += q
            smallest = q
            if total >= top_p:
                break
        p = np.where(p >= smallest, p, 0.0)
        p = p / p.sum()
    return p, rng.choice(V, p=p)
'''),
    Correct("sample-next", "log-probabilities with a log-sum-exp", '''
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    scores = logits / temperature
    if top_k is not None:
        scores = np.where(scores >= np.partition(scores, -top_k)[-top_k], scores, -np.inf)
    peak = scores.max()
    log_probs = scores - (peak + np.log(np.sum(np.exp(scores - peak))))
    probs = np.exp(log_probs)
    if top_p is not None and top_p < 1.0:
        ranked = -np.sort(-probs)
        index = min(np.searchsorted(np.cumsum(ranked), top_p, side="left"), len(ranked) - 1)
        kept = probs >= ranked[index]
        probs = np.where(kept, probs, 0.0) / np.sum(probs[kept])
    return probs, rng.choice(probs.size, p=probs)
'''),
    Wrong("sample-next", "top-k with > drops the k-th largest itself", '''
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    z = logits / temperature
    if top_k is not None:
        z = np.where(z > np.sort(z)[-top_k], z, -np.inf)
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    if top_p is not None and top_p < 1:
        ranked = np.sort(probs)[::-1]
        cut = ranked[min(np.searchsorted(np.cumsum(ranked), top_p), len(probs) - 1)]
        probs = np.where(probs >= cut, probs, 0.0)
        probs = probs / probs.sum()
    return probs, rng.choice(len(probs), p=probs)
''', "On logits (2, 1, 0, -1) with top_k = 2, `probs` is wrong in 2 of 4 entries."),
    # the 2nd largest logit (1) is dropped too: (1, 0, 0, 0) instead of (e, 1, 0, 0) / (e + 1)
    Wrong("sample-next", "Hugging Face's nucleus, which breaks ties by position", '''
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    z = logits / temperature
    if top_k is not None:
        z = np.where(z < np.sort(z)[-top_k], -np.inf, z)
    probs = np.exp(z - z.max())
    probs = probs / probs.sum()
    if top_p is not None and top_p < 1:
        order = np.argsort(probs, kind="stable")              # ascending
        remove = np.cumsum(probs[order]) <= 1 - top_p
        probs[order[remove]] = 0.0
        probs = probs / probs.sum()
    return probs, rng.choice(len(probs), p=probs)
''', "On probabilities (0.2, 0.4, 0.2, 0.2) with top_p = 0.5: the ties at the cut stay, `probs` is wrong in 4 of 4 "
         "entries."),
    # ascending 0.2 (id 0), 0.2 (id 2), 0.2 (id 3), 0.4: running sums 0.2 and 0.4 are <= 0.5, so ids 0 and 2 go and
    # (0, 2/3, 0, 1/3) comes back instead of (0.2, 0.4, 0.2, 0.2)
    Wrong("sample-next", "a softmax without the largest logit subtracted", '''
def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None):
    z = logits / temperature
    if top_k is not None:
        z = np.where(z < np.sort(z)[-top_k], -np.inf, z)
    probs = np.exp(z) / np.sum(np.exp(z))
    if top_p is not None and top_p < 1:
        ranked = np.sort(probs)[::-1]
        cut = ranked[min(np.searchsorted(np.cumsum(ranked), top_p), len(probs) - 1)]
        probs = np.where(probs >= cut, probs, 0.0)
        probs = probs / probs.sum()
    return probs, rng.choice(len(probs), p=probs)
''', "`sample_next` raised ValueError on logits in the thousands (1000, 999, 998, 0, -1000)."),
    # exp(1000) overflows to inf, inf / inf is nan, and rng.choice refuses probabilities holding nan
    Correct("kv-decode-step", "picoGPT's attention per sequence and head", '''
# after picoGPT (jaykmody, MIT), gpt2.py: attention(q, k, v) = softmax(q @ k.T / sqrt(d_k)) @ v on one head,
# heads made with np.split along the channels; here one sequence at a time and the cache appended first
def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)

def attention(q, k, v):
    return softmax(q @ k.T / np.sqrt(q.shape[-1])) @ v

def attention_step(x, params, num_heads, past_k, past_v):
    B = x.shape[0]
    ys, ks, vs = [], [], []
    for b in range(B):
        q = x[b] @ params["wq"] + params["bq"]                     # (1, d)
        k = x[b] @ params["wk"] + params["bk"]
        v = x[b] @ params["wv"] + params["bv"]
        heads_k, heads_v, outs = [], [], []
        for h, (qh, kh, vh) in enumerate(zip(*(np.split(a, num_heads, axis=-1) for a in (q, k, v)))):
            kh = np.concatenate([past_k[b, h], kh])              # (P + 1, hs)
            vh = np.concatenate([past_v[b, h], vh])
            outs.append(attention(qh, kh, vh))
            heads_k.append(kh)
            heads_v.append(vh)
        ys.append(np.hstack(outs) @ params["wo"] + params["bo"])
        ks.append(heads_k)
        vs.append(heads_v)
    return np.array(ys), np.array(ks), np.array(vs)
'''),
    Correct("kv-decode-step", "einsum throughout", '''
def attention_step(x, params, num_heads, past_k, past_v):
    B, _, d = x.shape
    H, hs = num_heads, d // num_heads
    q, k_new, v_new = (np.einsum("btd,de->bte", x, params["w" + n]) + params["b" + n] for n in "qkv")
    q, k_new, v_new = (a.reshape(B, 1, H, hs).swapaxes(1, 2) for a in (q, k_new, v_new))
    k = np.concatenate((past_k, k_new), axis=-2)
    v = np.concatenate((past_v, v_new), axis=-2)
    s = np.einsum("bhqe,bhke->bhqk", q, k) / hs ** 0.5
    a = np.exp(s - s.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    o = np.einsum("bhqk,bhke->bqhe", a, v).reshape(B, 1, d)
    return np.einsum("btd,de->bte", o, params["wo"]) + params["bo"], k, v
'''),
    Correct("kv-decode-step", "each head's own slices of the weights", '''
import math

def attention_step(x, params, num_heads, past_k, past_v):
    d = x.shape[-1]
    hs = d // num_heads
    outs, ks, vs = [], [], []
    for h in range(num_heads):
        cols = slice(h * hs, (h + 1) * hs)
        q = x @ params["wq"][:, cols] + params["bq"][cols]                    # (B, 1, hs)
        k = np.concatenate([past_k[:, h], x @ params["wk"][:, cols] + params["bk"][cols]], axis=1)
        v = np.concatenate([past_v[:, h], x @ params["wv"][:, cols] + params["bv"][cols]], axis=1)
        scores = q @ np.swapaxes(k, 1, 2) / math.sqrt(hs)                       # (B, 1, P + 1)
        w = np.exp(scores - scores.max(axis=2, keepdims=True))
        outs.append((w / w.sum(axis=2, keepdims=True)) @ v)
        ks.append(k)
        vs.append(v)
    y = np.concatenate(outs, axis=-1) @ params["wo"] + params["bo"]
    return y, np.stack(ks, axis=1), np.stack(vs, axis=1)
'''),
    Wrong("kv-decode-step", "heads taken as every H-th channel", '''
def attention_step(x, params, num_heads, past_k, past_v):
    B, _, d = x.shape
    hs = d // num_heads

    def split(a):   # channel j * H + h to head h: strided, not in blocks
        return a.reshape(B, 1, hs, num_heads).transpose(0, 3, 1, 2)

    q = split(x @ params["wq"] + params["bq"])
    k = np.concatenate([past_k, split(x @ params["wk"] + params["bk"])], axis=2)
    v = np.concatenate([past_v, split(x @ params["wv"] + params["bv"])], axis=2)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hs)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    out = (w @ v).transpose(0, 2, 3, 1).reshape(B, 1, d)
    return out @ params["wo"] + params["bo"], k, v
''', f"On {FROM_FULL}, `y` is wrong in 8 of 8 entries."),
    # with one head (the first case) both layouts agree; with two, each head reads other channels than the cache's
    Wrong("kv-decode-step", "the softmax over the heads' axis", '''
def attention_step(x, params, num_heads, past_k, past_v):
    B, _, d = x.shape
    hs = d // num_heads
    q = (x @ params["wq"] + params["bq"]).reshape(B, 1, num_heads, hs).transpose(0, 2, 1, 3)
    k = np.concatenate([past_k, (x @ params["wk"] + params["bk"]).reshape(B, 1, num_heads, hs).transpose(0, 2, 1, 3)], 2)
    v = np.concatenate([past_v, (x @ params["wv"] + params["bv"]).reshape(B, 1, num_heads, hs).transpose(0, 2, 1, 3)], 2)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hs)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    out = (w @ v).transpose(0, 2, 1, 3).reshape(B, 1, d)
    return out @ params["wo"] + params["bo"], k, v
''', f"On {IDENTITY}, `y` is wrong in 2 of 2 entries."),
    # one head: each weight is alone on its axis, so both are 1 and y = (2, 4) + (1, 0) = (3, 4), not (1.3302, 1.3209)
    Wrong("kv-decode-step", "the cache handed back as it came", '''
def attention_step(x, params, num_heads, past_k, past_v):
    B, _, d = x.shape
    hs = d // num_heads
    heads = lambda a: a.reshape(B, 1, num_heads, hs).transpose(0, 2, 1, 3)
    q = heads(x @ params["wq"] + params["bq"])
    k = np.concatenate([past_k, heads(x @ params["wk"] + params["bk"])], axis=2)
    v = np.concatenate([past_v, heads(x @ params["wv"] + params["bv"])], axis=2)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hs)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    out = (w @ v).transpose(0, 2, 1, 3).reshape(B, 1, d)
    return out @ params["wo"] + params["bo"], past_k, past_v
''', f"On {IDENTITY}, `k` has shape (1, 1, 1, 2) but should have shape (1, 1, 2, 2)."),
]
