"""Exercise: linear warm-up, then cosine decay to a tenth."""
from ..optim import learning_rate as _learning_rate
from ._spec import Mistake, case, starter

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
\\(\\text{base} \\cdot (0.1 + 0.9 \\cdot \\tfrac12 (1 + \\cos \\pi q))\\)."""
SOLUTION = '''\
def learning_rate(step, base_lr, warmup_steps, total_steps):
    """Return the learning rate at step (counting from 0) as a float."""
    if step < warmup_steps:
        return base_lr * (step + 1) / warmup_steps
    progress = min((step - warmup_steps) / (total_steps - warmup_steps), 1.0)
    cosine = 0.5 * (1.0 + np.cos(np.pi * progress))
    return base_lr * (0.1 + 0.9 * cosine)
'''
STARTER = starter(SOLUTION, FUNCTION)
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
)


def reference(step, base_lr, warmup_steps, total_steps):
    return _learning_rate(step, base_lr, warmup_steps, total_steps)


CASES = (
    case("step 0 of a 10-step warm-up, 100 steps, base 0.001", step=0, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 4 of the warm-up", step=4, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 55: halfway through the decay", step=55, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 100: the end of the schedule", step=100, base_lr=1e-3, warmup_steps=10, total_steps=100),
    case("step 150: past the end", step=150, base_lr=1e-3, warmup_steps=10, total_steps=100),
)
