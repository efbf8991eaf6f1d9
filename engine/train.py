"""The training loop: random windows of the corpus, loss and gradients, clipping, an AdamW step, repeat.

It reports progress as a text bar with the current loss, measures the validation loss now and then, and writes
checkpoints so a long run can be stopped and its model used with ``python -m engine talk``.
"""
import math
import sys
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .checkpoint import save_checkpoint
from .data import build_vocab, get_batch, split_ids
from .errors import ConfigError
from .model import check_params, evaluate_loss, init_params, loss_and_grads
from .optim import adamw_init, adamw_step, clip_grad_norm, learning_rate
from .tokenizer import BpeTokenizer, encode_text, vocabulary_for


@dataclass(frozen=True)
class TrainSettings:
    """How to train (the model's own sizes live in GPTConfig)."""

    steps: int = 2000
    batch_size: int = 16
    lr: float = 3e-3  # peak learning rate, reached after the warm-up
    warmup_steps: int = 100
    grad_clip: float = 1.0  # maximum global gradient norm
    weight_decay: float = 0.1
    eval_every: int = 200  # steps between validation-loss measurements (and progress lines when not a terminal)
    eval_batches: int = 8
    checkpoint_path: str | None = None
    checkpoint_every: int = 500
    seed: int = 0

    def __post_init__(self):
        at_least = {"steps": 1, "batch_size": 1, "eval_every": 1, "eval_batches": 1, "checkpoint_every": 1,
                    "warmup_steps": 0, "seed": 0}
        for key, low in at_least.items():
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigError(f"TrainSettings: {key} must be an integer >= {low}, got {value!r}")
        for key in ("lr", "grad_clip", "weight_decay"):
            value = getattr(self, key)
            positive = key != "weight_decay"
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not (
                    value > 0 if positive else value >= 0):
                raise ConfigError(f"TrainSettings: {key} must be a finite number {'>' if positive else '>='} 0, "
                                  f"got {value!r}")


class TrainResult(NamedTuple):
    params: dict
    config: object
    vocab: list
    history: dict  # "train_loss", "grad_norm" (before clipping): one float per step; "val_loss": (step, loss) pairs


def progress_bar(step, total, loss, grad_norm=None, width=30):
    """``[#####-----]  120/500  loss 2.3141  grad norm 0.8123``: how far along, how well it is going, and how long
    the step's gradient was before clipping (a norm still above the clip late in a run is a warning sign)."""
    filled = int(width * step / max(total, 1))
    line = f"[{'#' * filled}{'-' * (width - filled)}] {step:>{len(str(total))}}/{total}  loss {loss:.4f}"
    return line if grad_norm is None else f"{line}  grad norm {grad_norm:.4f}"


def _validation_loss(params, val_ids, config, settings):
    rng = np.random.default_rng(settings.seed + 1)  # the same windows every time, so values are comparable
    losses = [evaluate_loss(params, *get_batch(val_ids, settings.batch_size, config.seq_len, rng), config)
              for _ in range(settings.eval_batches)]
    return float(np.mean(losses))


class TrainRun:
    """A training run between steps: what ``train_step`` reads and advances. Plain attributes, so a caller that
    runs steps in chunks (the browser's "Build your GPT" page pauses between them) holds the whole state."""

    def __init__(self, config, text, settings, params=None, vocab=None):
        """``params`` and ``vocab``: a trained model's (``train --resume``) instead of fresh weights; the text must
        have exactly that vocabulary, or its ids would mean other characters. AdamW's moments start at zero."""
        self.settings = settings
        if vocab is None:
            self.vocab = vocabulary_for(config, text)
        elif isinstance(vocab, BpeTokenizer):  # bytes: any text encodes, so the model's own merges read it
            self.vocab = vocab
        else:
            self.vocab = build_vocab(text)
            if list(vocab) != self.vocab:
                extra = sorted(set(self.vocab) - set(vocab))
                raise ConfigError(f"train: the text's characters are not the model's vocabulary ({len(self.vocab)} "
                                  f"against {len(vocab)}" + (f"; new: {''.join(extra)!r}" if extra else "") + ")")
        if config.vocab_size not in (None, len(self.vocab)):
            raise ConfigError(f"train: config.vocab_size is {config.vocab_size} but the text's vocabulary has "
                              f"{len(self.vocab)} tokens")
        self.config = config.with_overrides(vocab_size=len(self.vocab))
        self.train_ids, self.val_ids = split_ids(encode_text(text, self.vocab))
        self.has_val = len(self.val_ids) > self.config.seq_len
        if params is not None:
            check_params(params, self.config, "train")
        self.params = ({name: np.array(p, dtype=np.float64) for name, p in params.items()} if params is not None
                       else init_params(self.config, settings.seed))
        self.state = adamw_init(self.params)
        self.rng = np.random.default_rng(settings.seed)
        self.history = {"train_loss": [], "val_loss": [], "grad_norm": []}
        self.step = 0  # steps done

    @property
    def done(self):
        return self.step >= self.settings.steps


def train_step(run):
    """One step of ``run``: a batch, loss and gradients, clipping, an AdamW step; the validation loss when due.
    Returns the step's training loss."""
    config, settings = run.config, run.settings
    x, y = get_batch(run.train_ids, settings.batch_size, config.seq_len, run.rng)  # (B, T) each
    loss, grads = loss_and_grads(run.params, x, y, config, run.rng if config.dropout > 0 else None)
    grad_norm = clip_grad_norm(grads, settings.grad_clip)  # the length before clipping, logged: how often it bites
    lr = learning_rate(run.step, settings.lr, settings.warmup_steps, settings.steps)
    adamw_step(run.params, grads, run.state, lr, weight_decay=settings.weight_decay)
    run.history["train_loss"].append(loss)
    run.history["grad_norm"].append(grad_norm)
    run.step += 1
    if is_report_step(run) and run.has_val:
        run.history["val_loss"].append((run.step, _validation_loss(run.params, run.val_ids, config, settings)))
    return loss


def is_report_step(run):
    """Whether the step just done measures the validation loss (and prints a line into a log)."""
    return run.step % run.settings.eval_every == 0 or run.step == run.settings.steps


def train(config, text, settings=TrainSettings(), out=None, params=None, vocab=None):
    """Train a fresh model on ``text`` (or go on training ``params`` with their ``vocab``, see ``TrainRun``);
    ``config.vocab_size`` is set from the text's characters.

    Progress goes to ``out`` (default: the current ``sys.stderr``).
    """
    out = sys.stderr if out is None else out
    run = TrainRun(config, text, settings, params, vocab)
    live = hasattr(out, "isatty") and out.isatty()  # redraw one line on a terminal, print lines into a log
    while not run.done:
        loss = train_step(run)
        report = is_report_step(run)
        if live or report:
            line = progress_bar(run.step, settings.steps, loss, run.history["grad_norm"][-1])
            if report and run.has_val:
                line += f"  val {run.history['val_loss'][-1][1]:.4f}"
            out.write(("\r" + line) if live else (line + "\n"))
            out.flush()
        if settings.checkpoint_path and (run.step % settings.checkpoint_every == 0 or run.done):
            save_checkpoint(settings.checkpoint_path, run.params, run.config, run.vocab, run.step)
    if live:
        out.write("\n")
    return TrainResult(run.params, run.config, run.vocab, run.history)
