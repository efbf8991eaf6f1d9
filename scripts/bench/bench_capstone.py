"""Benchmark "Build your GPT": training in the tab against the CPython engine on this machine (needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_capstone.py [--runs 3] [--steps 100]

Reports, min/median/max over --runs (CPython and tab runs interleaved): the CPython engine's steps/s for the page's model and settings (one BLAS
thread, as Pyodide has), with the engine's functions, with the layers' solutions swapped in (the leaves: typical
learner functions) and with every exercise's solution the model and its loop call (AdamW, schedule, initialisation
and sampler too: all the learner's); in headless Chromium, the page's own run (Train pressed, chunks of steps from
the practice worker): steps/s between the first and the last chunk for each, and their ratio to CPython with the
same functions and to the CPython engine (target >= 0.30x); the time from Train to the first point on the chart (the worker already started by a
Check, which also graded the sources once; the widgets' worker done loading); the main thread's longest task during
the run (target < 50 ms).
"""
import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")  # Pyodide's NumPy has one thread: compare like with like
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import chromium  # noqa: E402
from browserbench.served import built_and_served  # noqa: E402

LONG_TASKS = """window.__longTasks = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(
  [entry.startTime, entry.duration]); }).observe({type: "longtask", buffered: true});"""
PAGE = "model/build-your-gpt/"


def spread(values, unit, digits=1):
    values = sorted(values)
    return (f"{values[0]:.{digits}f}/{statistics.median(values):.{digits}f}/{values[-1]:.{digits}f} {unit} "
            f"(min/median/max of {len(values)})")


def solutions(leaves_only=False):
    """The exercises' solutions as typical learner functions: of the layers' forwards and backwards only (the
    leaves), or of every function the model and its loop call (optimiser, schedule, initialisation, sampler too)."""
    from engine import exercises
    from engine.capstone import layers
    ids = layers.exercise_ids()
    if leaves_only:
        ids = [i for layer in layers.LAYERS for i in (layer.exercise_forward, layer.exercise_backward) if i]
    return {i: exercises.get(i).SOLUTION for i in ids}


def cpython_steps_per_s(steps, sources):
    """Steps/s of the page's run in this process: engine.capstone.session, the same code the worker runs."""
    from engine.capstone import DEFAULTS, session
    session.start_json(json.dumps({"sources": sources, "steps": steps, "lr": DEFAULTS["lr"], "seed": 0}))
    started = time.perf_counter()
    while not json.loads(session.run_json(steps, 1e9))["done"]:
        pass
    return steps / (time.perf_counter() - started)


def tab_run(browser, url, steps, sources):
    """One run on a fresh page: {speed, first_point_ms, longest_ms}."""
    context = browser.new_context()
    context.add_init_script(LONG_TASKS)
    page = context.new_page()
    page.goto(url)
    page.evaluate("sources => { for (const [id, code] of Object.entries(sources)) localStorage.setItem("
                  "`layerwise:practice:${id}`, JSON.stringify({code, hints: 0, failures: 0, passed: true})); }",
                  sources)
    page.reload()
    # the widgets' worker loads Pyodide too when the page opens: measure training once it is done
    page.wait_for_function("window.Layerwise && window.Layerwise.capstone && Layerwise.engine && "
                           "['ready', 'failed'].includes(Layerwise.engine.state)", timeout=300_000)
    page.locator(".lw-capstone__check").click()  # starts the worker and grades the sources once
    page.wait_for_function("Layerwise.capstone.state === 'idle'", timeout=300_000)
    if not page.evaluate("Layerwise.capstone.check.ok"):
        sys.exit(f"the check failed: {page.locator('.lw-capstone__status').text_content()}")
    page.select_option(".lw-capstone__steps", str(steps))
    page.locator(".lw-capstone__train").click()
    page.wait_for_function("['done', 'failed', 'stopped'].includes(Layerwise.capstone.state)", timeout=600_000)
    if page.evaluate("Layerwise.capstone.state") != "done":
        sys.exit(f"the run did not finish: {page.locator('.lw-capstone__status').text_content()}")
    timeline = page.evaluate("Layerwise.capstone.timeline")
    (pressed, _), (first_at, first_step), (last_at, last_step) = timeline[0], timeline[1], timeline[-1]
    longest = max([d for start, d in page.evaluate("window.__longTasks") if start >= pressed], default=0.0)
    context.close()
    return {"speed": (last_step - first_step) / ((last_at - first_at) / 1000), "first_point_ms": first_at - pressed,
            "longest_ms": longest}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=100, choices=(100, 200))
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        sys.exit("PYODIDE_DIST is not set: the benchmark needs NumPy in Pyodide (see ../shared/README.md)")
    from playwright.sync_api import sync_playwright

    variants = {"the engine's functions": {}, "the layers' solutions (leaves only)": solutions(leaves_only=True),
                "every exercise's solution (all the learner's)": solutions()}
    cpython = {name: [] for name in variants}
    tab = {name: [] for name in variants}
    with built_and_served(dist) as (_, site):
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium.executable(), args=chromium.ARGS)
            for _ in range(args.runs):  # interleaved, so a load change on the machine hits all alike
                for name, sources in variants.items():
                    cpython[name].append(cpython_steps_per_s(args.steps, sources))
                    tab[name].append(tab_run(browser, site + PAGE, args.steps, sources))
            browser.close()
    print(f"Build your GPT, {args.steps} steps (batch 8, the engine's default model)")
    engine_cpython = statistics.median(cpython["the engine's functions"])
    for name in variants:
        speeds = [run["speed"] for run in tab[name]]
        ratio = statistics.median(speeds) / statistics.median(cpython[name])
        print(f"  with {name} ({len(variants[name])} functions):")
        print(f"    CPython                  {spread(cpython[name], 'steps/s')}")
        print(f"    in the tab (Pyodide)     {spread(speeds, 'steps/s')}  -> {ratio:.2f}x CPython with the same "
              f"functions, {statistics.median(speeds) / engine_cpython:.2f}x the CPython engine (target >= 0.30x)")
        print(f"    Train -> first point     {spread([r['first_point_ms'] for r in tab[name]], 'ms', 0)}")
        print(f"    longest main-thread task {spread([r['longest_ms'] for r in tab[name]], 'ms', 0)} "
              f"(target < 50 ms)")


if __name__ == "__main__":
    main()
