"""Benchmark practice in headless Chromium on localhost (needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_practice.py [--runs 5] [--warm-runs 50] [--exercise ID]

Reports: the bytes practice adds to an exercise page (every file under assets/layerwise/practice/ plus
engine-client.js that the page fetched before any run; raw and gzip); Run -> verdict shown for a warm practice
worker (p50/p95 over --warm-runs runs; target p95 < 300 ms for a forward exercise) and for a cold one (a fresh
page: the worker starts with the run); the time to recover after a killed run (an endless loop stopped at the run
limit, then the next run's verdict, which starts a fresh worker); a reader who scrolls from the top of the page
(widgets live, then --reading-ms more) to the exercise: when the practice worker is ready after that jump (it
starts as the exercise nears the screen, or once the widgets are live where navigator.deviceMemory says 4 GB or more
and navigator.hardwareConcurrency 4 or more: --device-memory, --cores) and the first Run -> verdict then (target <=
500 ms), with the tab's renderer memory (RSS, the page and its workers) before, with the widgets' engine, and with
the practice worker too. Cold, reached and recovery
are min/median/max of --runs (fresh profiles for "reached").

"Run" is the exercise's run(), what the Run button and Ctrl+Enter call; its time ends when the verdict is in the
page. The code is put in the editor through the editor's API here (the browser tests type it like a person).
"""
import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import chromium  # noqa: E402
from browserbench.served import built_and_served  # noqa: E402

ENDLESS = "def {function}(*args, **kwargs):\n    while True:\n        pass\n"
TIMED_RUN = """async ([id, code]) => {
    const exercise = Layerwise.practice.exercises().find(e => e.id === id);
    exercise.editor.setCode(code);
    const started = performance.now();
    await exercise.run();
    return {ms: performance.now() - started, status: exercise.status.textContent};
}"""
CLICK_HOLD_MS = 90  # a mouse button is held ~0.1 s in a click


def spread(values, unit="ms"):
    values = sorted(values)
    return f"{values[0]:.0f}/{statistics.median(values):.0f}/{values[-1]:.0f} {unit} (min/median/max of {len(values)})"


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def open_exercise(context, url, exercise_id):
    """The exercise's page, scrolled to the exercise as a reader gets there (its editor is made then)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("Layerwise.practice && Layerwise.practice.exercises().length", timeout=60_000)
    page.locator(f"#exercise-{exercise_id}").scroll_into_view_if_needed()
    page.wait_for_function("id => Layerwise.practice.exercises().some(e => e.id === id && e.editor)",
                           arg=exercise_id, timeout=60_000)
    return page


def jump(page, exercise_id, hover_ms):
    """Move the view to the exercise: a script's scroll, or (``hover_ms`` not None) the contents' Practice link,
    the pointer resting ``hover_ms`` on it before a click held as a person holds one."""
    if hover_ms is None:
        page.locator(f"#exercise-{exercise_id}").scroll_into_view_if_needed()
        return
    box = page.locator('.md-sidebar--secondary a.md-nav__link[href$="#practice"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(hover_ms)
    page.mouse.down()
    page.wait_for_timeout(CLICK_HOLD_MS)
    page.mouse.up()


def reached(context, url, exercise_id, reading_ms=0, hover_ms=None):
    """A reader at the top of the page until the widgets are live, who reads there ``reading_ms`` more, then jumps to
    the exercise (``jump``): (ms from the jump until the practice worker and the exercise's editor are ready, page).
    The worker starts when the exercise nears the screen, earlier with memory to spare, or as the pointer rests on a
    link to it."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.Layerwise && Layerwise.engine && Layerwise.engine.state === 'ready'"
                           " && Layerwise.practice", timeout=120_000)
    page.wait_for_timeout(reading_ms)
    # The jump is when the view moves: Playwright's own work before its scroll (~0.3-0.4 s here) is no reader's.
    page.evaluate("addEventListener('scroll', () => { window.__reachedAt = performance.now(); }, {once: true})")
    jump(page, exercise_id, hover_ms)
    # ready for a Run: the worker (which may have started before the jump) and the exercise's editor (made then)
    page.wait_for_function("id => Layerwise.practice.engine.state === 'ready'"
                           " && Layerwise.practice.exercises().some(e => e.id === id && e.editor)",
                           arg=exercise_id, timeout=120_000)
    return page.evaluate("performance.now() - window.__reachedAt"), page


def renderer_rss_mb(profile):
    """Resident memory of the tab's renderer process (the page and its workers) of the Chromium using ``profile``,
    in MB: the largest renderer under that browser (ps; Linux)."""
    table = [line.split(None, 3) for line in subprocess.run(["ps", "-eo", "pid=,ppid=,rss=,args="], capture_output=True,
                                                            text=True).stdout.splitlines()]
    children = {}
    for pid, ppid, rss, args in table:
        children.setdefault(ppid, []).append((pid, int(rss), args))
    browser = next(pid for pid, _, _, args in table if f"--user-data-dir={profile}" in args and "--type=" not in args)
    found, todo = [], [browser]
    while todo:
        for pid, rss, args in children.get(todo.pop(), []):
            todo.append(pid)
            if "--type=renderer" in args:
                found.append(rss)
    return max(found) / 1024


def timed_run(page, exercise_id, code):
    answer = page.evaluate(TIMED_RUN, [exercise_id, code])
    return answer["ms"], answer["status"]


def practice_bytes(browser, url, site_root):
    """Files practice adds to an exercise page once its editors are made (scrolled to), before any run."""
    context = browser.new_context()
    fetched = []
    context.on("requestfinished", lambda r: fetched.append(r.url))
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("Layerwise.practice && Layerwise.practice.exercises().length", timeout=60_000)
    for exercise in page.locator(".lw-exercise").all():
        exercise.scroll_into_view_if_needed()
    page.wait_for_function("Layerwise.practice.exercises().every(e => e.editor)", timeout=60_000)
    page.wait_for_load_state("networkidle")
    context.close()
    files = sorted({u.split("?")[0] for u in fetched if "/assets/layerwise/practice/" in u or u.endswith("engine-client.js")})
    rows = []
    for file_url in files:
        data = (site_root / file_url.split("/", 3)[3]).read_bytes()
        rows.append((file_url.rsplit("/", 1)[1], len(data), len(gzip.compress(data, 9))))
    return rows


def check(status, wanted, what):
    if not status.startswith(wanted):
        sys.exit(f"{what}: expected a status starting {wanted!r}, got {status!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold runs and recoveries (fresh pages)")
    parser.add_argument("--warm-runs", type=int, default=50, help="runs with a warm worker")
    parser.add_argument("--exercise", default="layernorm-forward", help="a forward exercise by default")
    parser.add_argument("--device-memory", type=int, choices=(1, 2, 4, 8),
                        help="GB navigator.deviceMemory reports in the 'reached' runs (the practice worker starts "
                             "ahead of the reader with 4 or more and --cores 4 or more: widgets/practice/page.js); "
                             "default: what Chromium says here")
    parser.add_argument("--cores", type=int,
                        help="cores navigator.hardwareConcurrency reports in the 'reached' runs (with 4 or more and "
                             "4 GB or more the practice worker starts ahead of the reader); default: this machine's")
    parser.add_argument("--reading-ms", type=int, default=0,
                        help="in the 'reached' runs, how long the reader stays at the top once the widgets are live")
    parser.add_argument("--hover-ms", type=int,
                        help="in the 'reached' runs, jump by clicking the contents' Practice link after resting the "
                             "pointer this long on it (default: a script's scroll, no pointer)")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist:
        sys.exit("PYODIDE_DIST is not set: the benchmark needs NumPy in Pyodide (see ../shared/README.md)")
    from playwright.sync_api import sync_playwright

    from engine.exercises import get

    exercise = get(args.exercise)
    with built_and_served(dist, strict=True) as (root, site):
        page_path = next(p.parent.relative_to(root).as_posix() + "/" for p in sorted(root.rglob("index.html"))
                         if f'data-exercise="{args.exercise}"' in p.read_text(encoding="utf-8")
                         and p.parent.name != "practice")
        url = site + page_path
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium.executable(), args=chromium.ARGS)
            rows = practice_bytes(browser, url, root)
            print(f"exercise page {page_path}, exercise {args.exercise}")
            for name, raw, packed in rows:
                print(f"  {name:28s} {raw:>9,} bytes  {packed:>8,} gzip")
            print(f"  {'practice adds in all':28s} {sum(r[1] for r in rows):>9,} bytes  "
                  f"{sum(r[2] for r in rows):>8,} gzip")

            warm_up, first_run, memory = [], [], []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as profile:
                    context = playwright.chromium.launch_persistent_context(
                        profile, executable_path=chromium.executable(), args=chromium.ARGS)
                    for name, value in (("deviceMemory", args.device_memory), ("hardwareConcurrency", args.cores)):
                        if value:
                            context.add_init_script(f"Object.defineProperty(Navigator.prototype, '{name}', "
                                                    f"{{get: () => {value}}});")
                    before = renderer_rss_mb(profile)  # about:blank
                    context.pages[0].close()
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_function("window.Layerwise && Layerwise.engine && Layerwise.engine.state === 'ready'",
                                           timeout=120_000)
                    widgets_only = renderer_rss_mb(profile)
                    page.close()
                    ms, page = reached(context, url, args.exercise, args.reading_ms, args.hover_ms)
                    warm_up.append(ms)
                    memory.append((before, widgets_only, renderer_rss_mb(profile)))
                    ms, status = timed_run(page, args.exercise, exercise.SOLUTION)
                    check(status, "Passed", "first run after reaching the exercise")
                    first_run.append(ms)
                    context.close()

            cold, recover, warm = [], [], []
            for run in range(args.runs):
                context = browser.new_context()
                page = open_exercise(context, url, args.exercise)
                ms, status = timed_run(page, args.exercise, exercise.SOLUTION)
                check(status, "Passed", "cold run")
                cold.append(ms)
                if run == 0:
                    for _ in range(args.warm_runs):
                        ms, status = timed_run(page, args.exercise, exercise.SOLUTION)
                        warm.append(ms)
                    check(status, "Passed", "warm run")
                _, status = timed_run(page, args.exercise, ENDLESS.format(function=exercise.FUNCTION))
                check(status, "Stopped after", "endless loop")
                ms, status = timed_run(page, args.exercise, exercise.SOLUTION)
                check(status, "Passed", "run after the stop")
                recover.append(ms)
                context.close()
            browser.close()
    print(f"Run -> verdict, warm worker: p50 {percentile(warm, 50):.0f} ms, p95 {percentile(warm, 95):.0f} ms "
          f"(target p95 < 300 ms), max {max(warm):.0f} ms over {len(warm)} runs")
    print(f"Run -> verdict, cold (Run at once when the exercise reaches the screen): {spread(cold)}")
    memory_said = f"{args.device_memory} GB" if args.device_memory else "Chromium's own"
    cores_said = args.cores or "this machine's"
    how = ("" if args.hover_ms is None
           else f" by the contents' Practice link, the pointer resting {args.hover_ms} ms on it first")
    print(f"reader at the top until the widgets are live, reads {args.reading_ms} ms, jumps to the exercise{how} "
          f"(navigator.deviceMemory {memory_said}, hardwareConcurrency {cores_said}): "
          f"practice worker ready "
          f"{spread(warm_up)} after the jump; then the first Run -> verdict {spread(first_run)} (target <= 500 ms)")
    print("tab's renderer RSS (page and workers), median: " +
          ", ".join(f"{what} {statistics.median(m[i] for m in memory):.0f} MB" for i, what in
                    enumerate(("blank tab", "widgets' engine ready", "and the practice worker ready"))))
    print(f"after a killed run, the next Run -> verdict (fresh worker): {spread(recover)}")


if __name__ == "__main__":
    main()
