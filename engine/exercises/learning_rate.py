"""Exercise: linear warm-up, then cosine decay to a tenth."""
import numpy as np

from ..optim import learning_rate as _learning_rate
from ._domain import Domain
from ._spec import Case, Mistake, case

TITLE = "Learning-rate schedule"
PAGE = "model/training.md"
ORDER = 1
KIND = "write"
FUNCTION = "learning_rate"
OUTPUTS = ("lr",)
STATEMENT = """\
Write `learning_rate(step, base_lr, warmup_steps, total_steps)` (steps count from 0) returning a float. During the
first `warmup_steps` steps the rate rises linearly: `base_lr * (step + 1) / warmup_steps`. After that it follows
half a cosine from `base_lr` down to `0.1 * base_lr`, reached at `total_steps` and kept afterwards: with
\\(q = \\min(1, (\\text{step} - \\text{warmup}) / (\\text{total} - \\text{warmup}))\\), the rate is
\\(\\text{base} \\cdot (0.1 + 0.9 \\cdot \\tfrac12 (1 + \\cos \\pi q))\\). `step`, `warmup_steps` and `total_steps`
are integers, with `0 <= warmup_steps < total_steps`. The result is a float64 number."""
SOLUTION = '''\
def learning_rate(step, base_lr, warmup_steps, total_steps):
    """Return the learning rate at step (counting from 0) as a float."""
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    progress = min((step - warmup_steps) / (total_steps - warmup_steps), 1.0)
    cosine = 0.5 * (1.0 + np.cos(np.pi * progress))
    return base_lr * (0.1 + 0.9 * cosine)
'''
HINTS = (
    "Two cases: step < warmup_steps, and the rest.",
    "At the end of warm-up q = 0 and the cosine factor is 1; at total_steps q = 1 and it is 0.",
)
MISTAKES = (
    Mistake("warm-up starts at 0", "base_lr * (step + 1) / warmup_steps", "base_lr * step / warmup_steps",
            "Step 0 would get a learning rate of 0 and do nothing: the warm-up uses (step + 1) / warmup_steps."),
    Mistake("decays to zero", "base_lr * (0.1 + 0.9 * cosine)", "base_lr * cosine",
            "The schedule ends at a tenth of the base rate, not at 0: base_lr * (0.1 + 0.9 * cosine)."),
    Mistake("no floor after the end", "min((step - warmup_steps) / (total_steps - warmup_steps), 1.0)",
            "(step - warmup_steps) / (total_steps - warmup_steps)",
            "After total_steps the cosine would rise again: cap the progress at 1."),
    Mistake("warm-up one step too long", "if step < warmup_steps:", "if step <= warmup_steps:",
            "Step warmup_steps is the first step of the decay (q = 0, the full base rate): the warm-up covers "
            "steps 0 to warmup_steps - 1, so test `step < warmup_steps`."),
)


def _random_schedule(label, seed, in_warmup):
    """A case with the schedule, the rate and a step (in the warm-up or in the decay) drawn from a seeded generator."""
    def make():
        rng = np.random.default_rng(seed)
        warmup = int(rng.integers(2, 50))
        total = warmup + int(rng.integers(10, 500))
        step = int(rng.integers(0, warmup) if in_warmup else rng.integers(warmup, total))
        return {"step": step, "base_lr": float(rng.uniform(1e-4, 1e-2)), "warmup_steps": warmup,
                "total_steps": total}
    return Case(label, make)


def reference(step, base_lr, warmup_steps, total_steps):
    return _learning_rate(step, base_lr, warmup_steps, total_steps)


CASES = (
    case("step 0 of a 10-step warm-up, 100 steps, base 0.001", step=0, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 4 of the warm-up", step=4, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 9, the last step of the warm-up", step=9, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 10 = warmup_steps, the first step of the decay", step=10, base_lr=1e-3, warmup_steps=10,
         total_steps=100),
    case("step 55: halfway through the decay", step=55, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 100: the end of the schedule", step=100, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 99, the last step before the end", step=99, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 150: past the end", step=150, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 0 without warm-up (warmup_steps = 0)", step=0, base_lr=0.5, warmup_steps=0, total_steps=20),
    _random_schedule("a step, rate and schedule drawn at random (seeded), in the warm-up", 81, in_warmup=True),
    _random_schedule("a step, rate and schedule drawn at random (seeded), in the decay", 82, in_warmup=False),
)


def _schedule(d):
    """0 <= warmup < total, any step from 0 (past the end too), any base rate."""
    warmup = d.pick(0, 1, d.w)
    total = warmup + d.span
    step = d.pick(0, max(warmup - 1, 0), warmup, total - 1, total, total + d.span, int(d.uniform(0, 2 * total)))
    return {"step": step, "base_lr": d.pick(1e-4, 6e-4, 1.0, 3.0), "warmup_steps": warmup, "total_steps": total}


DOMAIN = Domain(sizes={"w": range(1, 10_001), "span": range(1, 100_001)}, make=_schedule, budget=1 << 40)
