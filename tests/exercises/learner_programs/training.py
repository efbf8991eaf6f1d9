"""The learning-rate schedule and clipping by the global norm."""
from . import Correct, Wrong

BY_HAND = "g1 = [2, 1], g2 = [[2, 4]] (global norm 5) with max_norm 1"

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
]
