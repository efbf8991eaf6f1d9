"""The trace summary's arithmetic on a hand-made trace: self times (a child's time is not its parent's), phases,
script attribution (a layout inside a script counts as layout, under that script's URL), long tasks, other threads.
Every expected number is worked by hand from the event list below."""
from browserbench import trace

PAGE = "http://site/layers/layernorm/"


def complete(name, ts_ms, dur_ms, tid=1, **data):
    return {"name": name, "ph": "X", "pid": 7, "tid": tid, "ts": ts_ms * 1000, "dur": dur_ms * 1000,
            "args": {"data": data} if data else {}}


EVENTS = [
    {"name": "thread_name", "ph": "M", "pid": 7, "tid": 1, "args": {"name": "CrRendererMain"}},
    {"name": "thread_name", "ph": "M", "pid": 7, "tid": 2, "args": {"name": "DedicatedWorker thread"}},
    {"name": "navigationStart", "ph": "R", "pid": 7, "tid": 1, "ts": 500, "args": {}},
    # task 1, 12 ms: parsing (10 ms) runs a.js (5 ms), which forces a 2 ms layout
    complete("RunTask", 1, 12),
    {**complete("ParseHTML", 1, 10), "args": {"beginData": {"url": PAGE}}},
    complete("EvaluateScript", 2, 5, url="http://site/a.js"),
    complete("Layout", 3, 2),
    # task 2, 60 ms (a long task): b.js runs 40 ms, 10 of them restyling; then a 15 ms paint
    complete("RunTask", 20, 60),
    complete("FunctionCall", 20, 40, url="http://site/b.js"),
    complete("UpdateLayoutTree", 30, 10),
    complete("Paint", 60, 15),
    # the worker: 30 ms busy
    complete("RunTask", 0, 30, tid=2),
]


def test_self_times_split_each_task_by_script_and_phase():
    tasks = trace.self_times(EVENTS, 7, 1)
    assert [(start, end) for start, end, _ in tasks] == [(1000, 13000), (20000, 80000)]
    first = {key: micros / 1000 for key, micros in tasks[0][2].items() if micros}
    assert first == {("", "other"): 2, ("", "parse HTML"): 5, ("http://site/a.js", "run script"): 3,
                     ("http://site/a.js", "layout"): 2}
    second = {key: micros / 1000 for key, micros in tasks[1][2].items() if micros}
    assert second == {("", "other"): 5, ("http://site/b.js", "run script"): 30, ("http://site/b.js", "style"): 10,
                      ("", "paint"): 15}


def test_summary_lines():
    lines = trace.summarise(EVENTS, PAGE)
    assert lines[0] == f"main thread of {PAGE}: 72 ms busy in 2 tasks"
    assert lines[1] == "  by phase: run script 33, paint 15, style 10, other 7, parse HTML 5, layout 2"
    assert lines[2] == "  by script: b.js 40, (no script) 27, a.js 5"
    assert lines[3] == "  long tasks (> 50 ms): 1, sum 60 ms"
    assert lines[4] == ("    at     20 ms,   60 ms: b.js run script 30, (no script) paint 15, b.js style 10, "
                        "(no script) other 5")
    assert lines[5].startswith("  other threads, 1 x DedicatedWorker thread: 30 ms busy")
    assert len(lines) == 6
