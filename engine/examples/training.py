"""Widget kind ``training``: a real, short training run of a tiny GPT on the shipped corpus, drawn as a loss curve.

It calls the engine's own ``train`` (batches, loss and gradients, global-norm clipping, warm-up and cosine learning
rate, AdamW) with a configuration small enough to finish in well under a second, so the build can pre-render it and
the browser can rerun it when the reader changes the step count, the learning rate or the seed.
"""
import io
import math
from functools import lru_cache

import numpy as np

from .. import optim
from ..config import GPTConfig
from ..data import decode, encode, get_batch, load_corpus, split_ids
from ..train import TrainSettings, train
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result
from .svg import line_chart

TINY = GPTConfig(seq_len=16, emb_dim=24, num_heads=2, ff_dim=48, num_layers=1)  # trains ~200 steps per second
MAX_STEPS, MAX_BATCH = 120, 16
# Above this rate a run is chaotic: Pyodide's NumPy and CPython's BLAS sum in different orders, and the two
# engines' losses drift apart in the visible digits. Below it they agree to ~1e-13.
MIN_LR, MAX_LR = 0.0001, 0.05
EVALUATIONS = 6  # validation points on the curve
MAX_SEED = 10**6


def settings_for(steps, batch_size, lr, warmup_steps, grad_clip, seed):
    """TrainSettings for the example (every input is bounded by its Operand, checked in the browser's cells and by
    Kind.bind, the warm-up's by the steps); validation is measured ``EVALUATIONS`` times along the run."""
    steps = int(steps)
    return TrainSettings(steps=steps, batch_size=int(batch_size), lr=float(lr), warmup_steps=int(warmup_steps),
                         grad_clip=float(grad_clip), eval_every=max(steps // EVALUATIONS, 1), eval_batches=2,
                         seed=int(seed))


@lru_cache(maxsize=4)
def short_run(settings):
    """Train TINY with ``settings`` (frozen, so hashable); cached because the generation widget reuses the model.

    Returns the engine's TrainResult and the progress lines ``train`` printed.
    """
    log = io.StringIO()
    result = train(TINY, load_corpus(), settings, out=log)
    return result, log.getvalue().splitlines()


def compute(steps, batch_size, lr, warmup_steps, grad_clip, seed):
    settings = settings_for(steps, batch_size, lr, warmup_steps, grad_clip, seed)
    result, log = short_run(settings)
    losses = np.array(result.history["train_loss"])  # (S,)
    val_steps = np.array([s for s, _ in result.history["val_loss"]])  # (K,)
    val_losses = np.array([v for _, v in result.history["val_loss"]])  # (K,)
    uniform = math.log(result.config.vocab_size)
    step_numbers = np.arange(1, settings.steps + 1)
    rates = np.array([optim.learning_rate(s, settings.lr, settings.warmup_steps, settings.steps)
                      for s in range(settings.steps)])  # (S,) the rate used at each step

    loss_plot = line_chart([("training batch", step_numbers, losses), ("validation", val_steps, val_losses),
                            ("ln V (uniform guess)", [1, settings.steps], [uniform, uniform])],
                           x_label="step", y_label="cross-entropy loss")
    lr_plot = line_chart([("learning rate", step_numbers, rates)], x_label="step", y_label="learning rate")
    norms = np.array(result.history["grad_norm"])  # (S,) before clipping
    norm_plot = line_chart([("gradient norm", step_numbers, norms),
                            ("grad_clip", [1, settings.steps], [settings.grad_clip, settings.grad_clip])],
                           x_label="step", y_label="global gradient norm")

    first = _first_window(result, settings)
    if settings.warmup_steps:
        arithmetic = (f"Step 1 is in the warm-up: lr = {format_compact(settings.lr)} × (0 + 1) / "
                      f"{settings.warmup_steps} = {format_number(rates[0], 6)}")
    else:
        arithmetic = f"No warm-up: step 1 already uses the full rate, lr = {format_number(rates[0], 6)}"
    notes = (
        f"Tiny model: V = {result.config.vocab_size}, T = {TINY.seq_len}, d = {TINY.emb_dim}, H = {TINY.num_heads}, "
        f"F = {TINY.ff_dim}, L = {TINY.num_layers}; {settings.batch_size} windows per step.",
        f"First loss {format_number(losses[0])} against ln V = {format_number(uniform)}; last training-batch loss "
        f"{format_number(losses[-1])}, last validation loss {format_number(val_losses[-1])}."
        if len(val_losses) else f"First loss {format_number(losses[0])}; last {format_number(losses[-1])}.",
        first,
        "What train printed: " + log[-1].strip(),
        _clipping(norms, settings.grad_clip),
    )
    return Result(
        blocks=(Block("val_loss", f"validation loss after steps {', '.join(str(s) for s in val_steps)}",
                      val_losses, ("K",)),
                Block("lr_used", "learning rate at those steps", rates[val_steps - 1], ("K",))),
        arithmetic=arithmetic,
        notes=notes,
        plots=(("Loss during a short training run", loss_plot), ("Learning rate: warm-up, then cosine", lr_plot),
               ("Gradient norm before clipping", norm_plot)),
    )


def _clipping(norms, clip):
    """How often the clip bit: on which share of the steps, and when last (late and often means a rate too high)."""
    clipped = np.flatnonzero(norms > clip) + 1  # step numbers, from 1
    if not len(clipped):
        return f"The gradient norm stayed under grad_clip = {format_compact(clip)} on every step: nothing was clipped."
    return (f"Clipped on {len(clipped)} of {len(norms)} steps (norm above grad_clip = {format_compact(clip)}), the "
            f"last at step {clipped[-1]}; the last step's norm was {format_number(norms[-1])}.")


def _first_window(result, settings):
    """The first window the run trained on, as text: the target is the input moved one character on."""
    ids = split_ids(encode(load_corpus(), result.vocab))[0]  # (n,) the training part, as train splits it
    x, y = get_batch(ids, settings.batch_size, TINY.seq_len, np.random.default_rng(settings.seed))  # (B, T) each
    return (f"The first window of step 1: input {decode(x[0], result.vocab)!r}, "
            f"target {decode(y[0], result.vocab)!r}.")


KIND = Kind(
    name="training",
    title="A short training run of a tiny GPT",
    description="Change the number of steps, the batch size, the learning rate, the warm-up, the clipping or the seed.",
    dims=(Dim("K", "eval ", 1, 1 + EVALUATIONS, resizable=False),),
    inputs=(
        Operand("steps", f"training steps (1 to {MAX_STEPS})", (), 60, integer=True, bounds=(1, MAX_STEPS)),
        Operand("batch_size", f"windows per step (1 to {MAX_BATCH})", (), 8, integer=True, bounds=(1, MAX_BATCH)),
        Operand("lr", f"peak learning rate ({MIN_LR} to {MAX_LR})", (), 0.01, bounds=(MIN_LR, MAX_LR)),
        Operand("warmup_steps", "warm-up steps (0 to the steps)", (), 6, integer=True, bounds=(0, "steps")),
        Operand("grad_clip", "maximum global gradient norm (0.01 to 10)", (), 1.0, bounds=(0.01, 10)),
        Operand("seed", f"seed of the initial weights and of the batches (0 to {MAX_SEED})", (), 0, integer=True,
                bounds=(0, MAX_SEED)),
    ),
    compute=compute,
    group_titles={"forward": "Measured along the run"},
)
