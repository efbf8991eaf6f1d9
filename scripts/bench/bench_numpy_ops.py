"""Benchmark the NumPy operations a training step of "Build your GPT" spends its time in, in CPython and in Pyodide
(under Node), at that model's sizes: why a step in the tab is about four times slower than in CPython.

    PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_numpy_ops.py [--repeats 300]

Each line: microseconds per call in CPython (one BLAS thread) and in Pyodide, and their ratio. Pyodide's NumPy is
built without BLAS, so its matrix products run NumPy's plain loops; element-wise arithmetic stays close to CPython.
"""
import argparse
import json
import os
import sys

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")  # as many threads as Pyodide has

from pyodide_node import run_in_pyodide  # noqa: E402

# B*T = 8*16 rows of d = 32 channels, MLP width 128, 4 heads of 8: the page's model (engine.capstone.CONFIG)
OPERATIONS = """
import json, time
import numpy as np
rng = np.random.default_rng(0)
x, w, h, w2 = (rng.standard_normal(shape) for shape in [(128, 32), (32, 128), (128, 128), (128, 32)])
q, k = rng.standard_normal((8, 4, 16, 8)), rng.standard_normal((8, 4, 8, 16))
CASES = {
    "x @ W (128x32 by 32x128)": lambda: x @ w,
    "h @ W2 (128x128 by 128x32)": lambda: h @ w2,
    "x.T @ h, a weight gradient (32x128 by 128x128)": lambda: x.T @ h,
    "q @ k per head (8x4 of 16x8 by 8x16)": lambda: q @ k,
    "tanh over 128x128 (GELU)": lambda: np.tanh(h),
    "exp over 128x128": lambda: np.exp(h),
    "h * h + h over 128x128": lambda: h * h + h,
    "a 4x4 slice + 1 (per-call overhead)": lambda: x[:4, :4] + 1.0,
}
def timed(case, repeats):
    case()
    start = time.perf_counter()
    for _ in range(repeats):
        case()
    return (time.perf_counter() - start) / repeats * 1e6
json.dumps({name: timed(case, REPEATS) for name, case in CASES.items()})
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300)
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        sys.exit("PYODIDE_DIST is not set: it must name a Pyodide folder with NumPy (see ../shared/README.md)")
    code = f"REPEATS = {args.repeats}\n" + OPERATIONS
    scope = {}
    exec(code.rsplit("\n", 2)[0], scope)  # CPython: everything but the last line, then time each case here
    cpython = {name: scope["timed"](case, args.repeats) for name, case in scope["CASES"].items()}
    pyodide = json.loads(run_in_pyodide(code, dist))
    print(f"{'operation':<48} {'CPython':>10} {'Pyodide':>10}   ratio")
    for name, micros in cpython.items():
        print(f"{name:<48} {micros:>8.1f}us {pyodide[name]:>8.1f}us   {pyodide[name] / micros:5.1f}x")


if __name__ == "__main__":
    main()
