"""From GPT-2 to a modern block: the same tiny model with each modern switch flipped in turn, compared by its
parameters, its KV cache per token, its arithmetic per token and its validation loss after the same short training.

Every number comes from the engine: the closed-form counts of ``engine.model`` and ``engine.kv_cache``, and a real
training run (``engine.train.train``) with one seed for all, so the variants differ only by their switches.
"""
import io
import statistics
import time
from functools import lru_cache

from .config import GPTConfig
from .data import load_corpus, split_ids
from .errors import LayerwiseError
from .kv_cache import cache_floats, cached_step_multiply_adds
from .model import param_count
from .swiglu import matched_width
from .tokenizer import decode_ids, encode_text, loss_per_character, vocabulary_for
from .train import TrainRun, TrainSettings, train, train_step

BASE = GPTConfig(seq_len=16, emb_dim=24, num_heads=2, ff_dim=48, num_layers=1)  # the training page's tiny model
SWITCHES = {  # one switch at a time, then all together (Llama's recipe at this size)
    "GPT-2": {},
    "+ rotary positions": {"positions": "rope"},
    "+ SwiGLU (2/3 width)": {"ffn": "swiglu", "ff_dim": matched_width(BASE.ff_dim)},
    "+ multi-query attention": {"kv_heads": 1},
    "+ RMSNorm": {"norm": "rmsnorm"},
    "all four": {"positions": "rope", "ffn": "swiglu", "ff_dim": matched_width(BASE.ff_dim), "kv_heads": 1,
                 "norm": "rmsnorm"},
    "+ BPE tokens (512)": {"tokenizer": "bpe:512"},  # not a block switch: what the model reads
}


def variant(switches, base=BASE):
    """``base`` with ``switches`` (a mapping of config fields) applied, vocabulary size fixed from the corpus."""
    config = base.with_overrides(**switches)
    return config.with_overrides(vocab_size=len(vocabulary_for(config, load_corpus())))


def settings(steps, seed):
    """The short run every variant gets: validation measured once, at the end."""
    return TrainSettings(steps=int(steps), batch_size=8, lr=0.01, warmup_steps=min(6, int(steps)),
                         eval_every=int(steps), eval_batches=4, seed=int(seed))


@lru_cache(maxsize=16)
def trained(config, steps, seed):
    """``(train losses, final validation loss per character)`` of ``config`` after ``steps`` steps (configs are
    hashable). A BPE model's loss per token is spread over the characters its held-out tokens spell."""
    text = load_corpus()
    result = train(config.with_overrides(vocab_size=None), text, settings(steps, seed), out=io.StringIO())
    if not result.history["val_loss"]:
        raise LayerwiseError("modern_block: the corpus left no validation windows")
    val_ids = split_ids(encode_text(text, result.vocab))[1]
    per_token = result.history["val_loss"][-1][1]
    return (tuple(result.history["train_loss"]),
            loss_per_character(per_token, len(val_ids), len(decode_ids(val_ids, result.vocab))))


def steps_per_second(config, steps=30, repeats=5):
    """Training steps per second of ``config`` on this machine, the median of ``repeats`` timings of ``steps`` steps
    (the settings of the comparison's runs). A measurement, not a count: it changes from machine to machine."""
    run = TrainRun(config.with_overrides(vocab_size=None), load_corpus(), settings(steps * repeats, 0))
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps):
            train_step(run)
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates)


def row(config, steps, seed, context=None):
    """``(parameters, KV-cache numbers per token, multiply-adds per generated token, validation loss per
    character)``; the multiply-adds are a cached step's at a full context of ``seq_len`` unless given."""
    context = config.seq_len if context is None else context
    return (param_count(config), cache_floats(config, 1), cached_step_multiply_adds(config, context),
            trained(config, steps, seed)[1])


@lru_cache(maxsize=1)
def measured_speeds():
    """``{name: training steps per second}`` of every entry of SWITCHES, timed once per process. Measured, so unlike
    every other number of the table it changes from run to run (the page says so)."""
    return {name: steps_per_second(variant(switches)) for name, switches in SWITCHES.items()}


@lru_cache(maxsize=4)
def comparison(steps=60, seed=0):
    """``{name: row}`` for every entry of SWITCHES, losses per character so the tokenizers compare."""
    return {name: row(variant(switches), steps, seed) for name, switches in SWITCHES.items()}
