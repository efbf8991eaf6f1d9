"""Benchmark generation with and without the KV cache: milliseconds per generated token.

    .venv/bin/python scripts/bench/bench_generate.py [--repeats 7] [--long-context 256]

Each run starts from a one-id prompt and generates until the context holds ``seq_len`` ids, so the last step reads a
full window; a third row per configuration goes on for another ``seq_len`` ids, where the window slides and the cache
has to be rebuilt on every step (learned positions). Timings are min / median / max over the repetitions. The
weights are a fresh initialisation: the cost of a step does not depend on what the model has learned. At the
default seq_len of 16 a step is a few dozen NumPy calls on tiny arrays either way, so their overhead, not the
arithmetic the cache saves, sets the time; the saving shows at longer contexts.
"""
import argparse
import time

from bench_engine import spread  # sets the one-BLAS-thread default before NumPy is imported

import numpy as np  # noqa: E402

from engine import data, model  # noqa: E402
from engine.config import GPTConfig  # noqa: E402
from engine.generate import generate  # noqa: E402


def time_per_token(params, config, new_tokens, kv_cache, repeats):
    """Seconds per generated id of ``generate`` from a one-id prompt, one figure per repetition."""
    times = []
    for repeat in range(repeats):
        start = time.perf_counter()
        generate(params, config, [0], new_tokens, np.random.default_rng(repeat), kv_cache=kv_cache)
        times.append((time.perf_counter() - start) / new_tokens)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--long-context", type=int, default=256, help="seq_len of the longer configuration")
    args = parser.parse_args()
    default = GPTConfig(vocab_size=len(data.build_vocab(data.load_corpus())))  # the shipped corpus's characters
    for config in (default, default.with_overrides(seq_len=args.long_context)):
        params = model.init_params(config)
        T = config.seq_len
        print(f"seq_len {T}, d {config.emb_dim}, L {config.num_layers}, H {config.num_heads} (ms per token)")
        medians = {}
        for kv_cache in (False, True):
            times = time_per_token(params, config, T - 1, kv_cache, args.repeats)
            medians[kv_cache] = sorted(times)[len(times) // 2]
            print(f"  up to T = {T:<4} {'cached  ' if kv_cache else 'uncached'}  {spread(times, 'ms', 1e3)}")
        print(f"  up to T = {T:<4} uncached / cached, medians: {medians[False] / medians[True]:.1f}")
        for kv_cache in (False, True):
            times = time_per_token(params, config, 2 * T - 1, kv_cache, args.repeats)
            print(f"  to 2T = {2 * T:<6} {'cached  ' if kv_cache else 'uncached'}  {spread(times, 'ms', 1e3)}")


if __name__ == "__main__":
    main()
