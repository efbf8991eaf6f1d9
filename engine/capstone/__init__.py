"""Your GPT: the learner's own layers assembled into the engine's model, checked against it, and trained.

``layers`` maps each exercise's function to the engine function it replaces and where the model finds it, ``swap``
binds them for the length of a ``with``, ``check`` compares the assembly with the engine on one batch, ``learner``
makes the functions from passed code and isolates them, ``session`` is what the browser's practice worker calls,
and ``reference`` computes the engine's own curves for the page at build time.
"""
from ..config import GPTConfig
from ..train import TrainSettings

CONFIG = GPTConfig()  # the model the page trains: the engine's default sizes (2 blocks, d = 32, T = 16)
BATCH_SIZE = 8
EVAL_EVERY = 20  # steps between validation losses
EVAL_BATCHES = 2
SAMPLE_EVERY = 50  # steps between lines sampled from the model
SAMPLE = {"prompt": "Shall I ", "tokens": 48, "temperature": 0.8, "top_k": 10}
# What the page offers (and has the engine's curves for); 1,000 steps is the longer run, a few minutes in a tab
CHOICES = {"steps": (100, 200, 1000), "lr": (3e-3, 1e-2), "seed": (0, 1)}
# Generate: the characters asked for and the settings offered, the first of each the default (0 turns top-k off,
# 1 keeps every id under top-p)
GENERATE = {"tokens": 200, "temperature": (0.8, 0.5, 1.0), "top_k": (10, 0), "top_p": (0.9, 1.0)}
DEFAULTS = {"steps": 200, "lr": 3e-3, "seed": 0}
TOLERANCE = 1e-8  # the check's relative tolerance: the loss, every gradient, every output of a learner's call


def settings(steps, lr, seed):
    """The training settings of a run the page offers; a value outside CHOICES is a ConfigError."""
    from ..errors import ConfigError
    for key, value in (("steps", steps), ("lr", lr), ("seed", seed)):
        if value not in CHOICES[key]:
            raise ConfigError(f"Build your GPT: {key} must be one of {', '.join(map(str, CHOICES[key]))}, "
                              f"got {value!r}")
    return TrainSettings(steps=steps, batch_size=BATCH_SIZE, lr=lr, warmup_steps=steps // 10, eval_every=EVAL_EVERY,
                         eval_batches=EVAL_BATCHES, seed=seed)


from . import reference  # noqa: E402 - after the names it reads; the page quotes its default run
