"""Optimisation: AdamW updates, global-norm gradient clipping and a warm-up-then-cosine learning rate.

AdamW keeps running averages of each gradient (m) and of its square (v) and steps by ``m / sqrt(v)``, so every
parameter gets its own step size. Weight decay is applied directly to the weights ("decoupled"), and only to
matrices: shrinking biases and norm gains toward 0 does not regularise anything useful.
"""
import math

import numpy as np

from .errors import LayerwiseError, check_count, check_real


def adamw_init(params):
    """Optimizer state: zero first and second moments for every parameter, and a step counter."""
    return {"m": {name: np.zeros_like(p) for name, p in params.items()},
            "v": {name: np.zeros_like(p) for name, p in params.items()},
            "step": 0}


def adamw_step(params, grads, state, lr, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1):
    """Update ``params`` in place by one AdamW step with bias-corrected moments."""
    missing = [name for name in params if name not in grads]
    if missing:
        raise LayerwiseError(f"adamw_step: grads is missing {', '.join(missing)}")
    beta1, beta2 = betas
    state["step"] += 1
    correction1 = 1.0 - beta1 ** state["step"]  # the moments start at 0; undo that bias early on
    correction2 = 1.0 - beta2 ** state["step"]
    for name, p in params.items():
        g, m, v = grads[name], state["m"][name], state["v"][name]
        m *= beta1
        m += (1.0 - beta1) * g
        v *= beta2
        v += (1.0 - beta2) * g * g
        if p.ndim >= 2:
            p -= lr * weight_decay * p
        p -= lr * (m / correction1) / (np.sqrt(v / correction2) + eps)


def uncorrected_step_ratio(step, betas=(0.9, 0.95)):
    """How many times larger Adam's step is at ``step`` (counting from 1) without the bias correction, ignoring eps.

    The uncorrected m and v are the corrected ones times (1 - beta1^t) and (1 - beta2^t) whatever the gradients
    were, so m / sqrt(v) is off by (1 - beta1^t) / sqrt(1 - beta2^t): below 1 early on when beta2 is small, far
    above 1 for hundreds of steps when beta2 is close to 1.
    """
    if not (isinstance(step, int) and step >= 1):
        raise LayerwiseError(f"uncorrected_step_ratio: step must be an integer >= 1, got {step!r}")
    beta1, beta2 = betas
    return (1.0 - beta1 ** step) / math.sqrt(1.0 - beta2 ** step)


def clip_grad_norm(grads, max_norm):
    """Scale all gradients together so their joint Euclidean norm is at most ``max_norm``; return the norm before.

    One global factor keeps the update's direction: clipping each array alone would bend it.
    """
    max_norm = check_real("clip_grad_norm", "max_norm", max_norm)
    total = math.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads.values()))
    if not math.isfinite(total):
        raise LayerwiseError("clip_grad_norm: the gradient norm is not finite; training has diverged")
    if total > max_norm:
        scale = max_norm / total
        for g in grads.values():
            g *= scale
    return total


def learning_rate(step, base_lr, warmup_steps, total_steps, min_ratio=0.1):
    """Linear warm-up from ~0 to ``base_lr`` over ``warmup_steps``, then cosine decay to ``min_ratio * base_lr``.

    ``step`` counts from 0. Warm-up avoids huge first updates while Adam's second moments are still unreliable.
    """
    step = check_count("learning_rate", "step", step)
    base_lr = check_real("learning_rate", "base_lr", base_lr, strict=False)
    warmup_steps = check_count("learning_rate", "warmup_steps", warmup_steps)
    total_steps = check_count("learning_rate", "total_steps", total_steps, 1)
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    decay_steps = max(total_steps - warmup_steps, 1)
    progress = min((step - warmup_steps) / decay_steps, 1.0)
    cosine = 0.5 * (1.0 + math.cos(math.pi * progress))  # 1 -> 0
    return base_lr * (min_ratio + (1.0 - min_ratio) * cosine)
