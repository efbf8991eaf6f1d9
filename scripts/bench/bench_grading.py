"""Benchmark: how long the grader takes per exercise, in CPython and (with PYODIDE_DIST) inside Pyodide under Node.

First the cold path in a fresh interpreter (importing the exercises, the first grade, and ``prepare`` taking the
first grade's extra work ahead of time); then two timings per exercise, warm (the exercise graded once before): a
passing run (the solution) and a failing run (the first known mistake, whose hint is looked up among the known
mistakes' outputs, computed ahead with the references). This is the Python part of the
browser's Run -> verdict time; the browser benchmark adds the worker round trip and the rendering.

    .venv/bin/python scripts/bench/bench_grading.py [--repeats 5]
    PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_grading.py
"""
import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

TIMING = """
import json, time
start = time.perf_counter()
from engine import exercises
imported = time.perf_counter()
first = exercises.get("layernorm-forward")
exercises.grade_json("layernorm-forward", first.SOLUTION)
cold = {"import engine.exercises (with NumPy)": (imported - start) * 1000,
        "then the first grade of layernorm-forward": (time.perf_counter() - imported) * 1000}
exercises.get("layernorm-backward")
start = time.perf_counter()
exercises.prepare(["layernorm-backward"])
cold["prepare(['layernorm-backward'])"] = (time.perf_counter() - start) * 1000
start = time.perf_counter()
exercises.grade_json("layernorm-backward", exercises.get("layernorm-backward").SOLUTION)
cold["then its first grade"] = (time.perf_counter() - start) * 1000

def timed(exercise_id, source, repeats):
    exercises.grade(exercise_id, source)  # warm: the reference outputs and the mistakes are computed once
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        exercises.grade(exercise_id, source)
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[len(times) // 2]

rows = []
for exercise_id in exercises.ids():
    exercise = exercises.get(exercise_id)
    wrong = exercise.MISTAKES[0].source(exercise.SOLUTION)
    rows.append([exercise_id, bool(getattr(exercise, "GRADCHECK", None)), timed(exercise_id, exercise.SOLUTION, REPEATS),
                 timed(exercise_id, wrong, REPEATS)])
json.dumps({"cold": cold, "rows": rows})
"""


def report(title, result):
    print(f"\n{title}: a fresh interpreter, ms")
    for label, ms in result["cold"].items():
        print(f"  {label}: {ms:.1f}")
    rows = result["rows"]
    print(f"{title}: median ms per grade (warm)")
    print(f"{'exercise':<24} {'pass':>8} {'fail':>8}")
    for exercise_id, gradcheck, passing, failing in rows:
        print(f"{exercise_id:<24} {passing:8.2f} {failing:8.2f}{'  (with gradient check)' if gradcheck else ''}")
    forward = sorted(r[2] for r in rows if not r[1])
    every = sorted(t for r in rows for t in r[2:])
    print(f"forward exercises, passing: median {forward[len(forward) // 2]:.2f}, worst {forward[-1]:.2f}; "
          f"all runs: worst {every[-1]:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    code = TIMING.replace("REPEATS", str(args.repeats))
    namespace = {}
    body, _, last = code.strip().rpartition("\n")
    exec(body, namespace)
    report("CPython", json.loads(eval(last, namespace)))
    if os.environ.get("PYODIDE_DIST"):
        from pyodide_node import run_in_pyodide
        report("Pyodide (Node)", json.loads(run_in_pyodide(code, os.environ["PYODIDE_DIST"])))
    else:
        print("\nPYODIDE_DIST is not set: Pyodide timings skipped")


if __name__ == "__main__":
    main()
