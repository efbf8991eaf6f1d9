"""Benchmark the NumPy engine on the default GPTConfig: training throughput and one block's forward + backward.

    .venv/bin/python scripts/bench/bench_engine.py [--dtype float64|float32] [--repeats 15] [--batch-size 16]
    OPENBLAS_NUM_THREADS=2 .venv/bin/python scripts/bench/bench_engine.py   # to compare with threaded BLAS

Each measurement is repeated and reported as min / median / max, so one noisy run does not decide the result.
Training tokens/s counts every part of a step: batch sampling, forward, backward, clipping and the AdamW update.
"""
import argparse
import os
import statistics
import time

# The engine's matrices are tiny: BLAS worker threads cost more in hand-offs than they save, and on a busy machine
# they make timings 30x slower and wildly noisy. One thread unless the caller sets the variables (read at NumPy import).
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
for variable in BLAS_THREAD_VARIABLES:
    os.environ.setdefault(variable, "1")

import numpy as np  # noqa: E402  (after the thread settings on purpose)

from engine import data, model, optim  # noqa: E402
from engine.config import GPTConfig  # noqa: E402
from engine.train import TrainSettings  # noqa: E402


def spread(values, unit, scale=1.0):
    values = [v * scale for v in values]
    return f"min {min(values):10.3f}  median {statistics.median(values):10.3f}  max {max(values):10.3f}  {unit}"


def time_training(config, ids, batch_size, steps, repeats):
    """Tokens per second of whole training steps, one figure per repetition of ``steps`` steps."""
    settings = TrainSettings()
    params = model.init_params(config)
    state = optim.adamw_init(params)
    rng = np.random.default_rng(0)
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps):
            x, y = data.get_batch(ids, batch_size, config.seq_len, rng)
            _, grads = model.loss_and_grads(params, x, y, config)
            optim.clip_grad_norm(grads, settings.grad_clip)
            optim.adamw_step(params, grads, state, settings.lr, weight_decay=settings.weight_decay)
        rates.append(steps * batch_size * config.seq_len / (time.perf_counter() - start))
    return rates


def time_block(config, batch_size, calls, repeats):
    """Seconds per ``block_forward`` + ``block_backward`` of block 0, averaged over ``calls`` per repetition."""
    params = model.init_params(config)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((batch_size, config.seq_len, config.emb_dim)).astype(config.dtype)  # (B, T, d)
    dy = rng.standard_normal(x.shape).astype(config.dtype)  # (B, T, d)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            _, cache = model.block_forward(x, params, 0, config)
            model.block_backward(dy, cache)
        times.append((time.perf_counter() - start) / calls)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    parser.add_argument("--batch-size", type=int, default=TrainSettings.batch_size)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--steps", type=int, default=20, help="training steps per repetition")
    parser.add_argument("--calls", type=int, default=50, help="block forward+backward calls per repetition")
    args = parser.parse_args()

    text = data.load_corpus()
    vocab = data.build_vocab(text)
    config = GPTConfig(vocab_size=len(vocab), dtype=args.dtype)
    ids = data.encode(text, vocab)
    print(f"config: {config}")
    print("BLAS threads: " + ", ".join(f"{v}={os.environ[v]}" for v in BLAS_THREAD_VARIABLES))
    print(f"parameters: {model.param_count(config):,}; batch {args.batch_size} x seq_len {config.seq_len} = "
          f"{args.batch_size * config.seq_len} tokens per step; {args.repeats} repetitions")
    model.loss_and_grads(model.init_params(config), *data.get_batch(ids, 2, config.seq_len,
                                                                     np.random.default_rng(0)), config)  # warm-up
    rates = time_training(config, ids, args.batch_size, args.steps, args.repeats)
    print(f"training tokens/s ({args.steps} steps per repetition):   {spread(rates, 'tokens/s')}")
    times = time_block(config, args.batch_size, args.calls, args.repeats)
    print(f"block forward+backward ({args.calls} calls per repetition): {spread(times, 'ms', 1e3)}")


if __name__ == "__main__":
    main()
