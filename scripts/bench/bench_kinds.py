"""Benchmark every widget kind's compute in CPython at its defaults: min/median/max per call, in milliseconds.

    .venv/bin/python scripts/bench/bench_kinds.py [--repeats 15] [--kind generation ...]

"edit" is what the reader waits for (validation, compute, JSON); "check" is the deferred gradient check that the
browser runs after showing the outputs; "first" is the first call in this process, before any memo (a trained
model, a unit-std run) is filled, which the worker pays once. Pyodide runs the same code several times slower.
"""
import argparse
import os
import statistics
import time

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")  # tiny matrices: BLAS threads cost more than they save

from engine.examples import KINDS  # noqa: E402  (after the thread settings on purpose)


def spread(values):
    values = sorted(v * 1000 for v in values)
    return f"{values[0]:8.2f} {statistics.median(values):8.2f} {values[-1]:8.2f}"


def time_kind(kind, repeats):
    inputs = kind.defaults()
    start = time.perf_counter()
    kind.run(inputs)  # fills the memos, as the worker's first edit does
    first = time.perf_counter() - start
    edits, checks = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        _, finish_check = kind.run_deferred(inputs)
        middle = time.perf_counter()
        finish_check()
        edits.append(middle - start)
        checks.append(time.perf_counter() - middle)
    return first, edits, checks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--kind", action="append", choices=sorted(KINDS), help="only these kinds (repeatable)")
    args = parser.parse_args()
    print(f"{'kind':16} {'first ms':>9} {'edit ms (min/median/max)':>26}   {'check ms (min/median/max)':>26}")
    for name in args.kind or sorted(KINDS):
        first, edits, checks = time_kind(KINDS[name], args.repeats)
        print(f"{name:16} {first * 1000:9.2f} {spread(edits):>26}   {spread(checks):>26}")


if __name__ == "__main__":
    main()
