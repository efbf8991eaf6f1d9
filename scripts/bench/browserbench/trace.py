"""Record a Chrome trace of one page load (CDP ``Tracing`` on the page's session) and say where the main thread's
time went: by phase (parse HTML, compile script, run script, style, layout, paint, GC), by script URL, and for each
long task (> 50 ms) what filled it. Times are self times (a forced layout inside a script counts as layout, but is
attributed to the script's URL)."""
import json
from collections import defaultdict

CATEGORIES = ["-*", "toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "v8",
              "blink.user_timing", "loading", "disabled-by-default-v8.compile", "v8.wasm"]
LONG_TASK_MS = 50

PHASES = {
    "parse HTML": ("ParseHTML",),
    "compile script": ("v8.compile", "v8.compileModule", "CompileScript", "v8.parseOnBackground", "V8.CompileCode",
                       "v8.produceCache", "v8.produceModuleCache", "v8.deserializeOnBackground", "CacheScript",
                       "v8.compileEager", "V8.CompileLazy"),
    "run script": ("EvaluateScript", "FunctionCall", "TimerFire", "EventDispatch", "FireAnimationFrame", "v8.run",
                   "v8.callFunction", "RunMicrotasks", "V8.Execute", "v8.evaluateModule", "FireIdleCallback",
                   "XHRReadyStateChange", "ObserverCallback", "IntersectionObserverController::computeIntersections"),
    "style": ("UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet", "ScheduleStyleRecalculation",
              "InvalidateLayout", "StyleInvalidatorInvalidationTracking"),
    "layout": ("Layout", "UpdateLayerTree", "LayoutShift", "HitTest", "ComputeIntersections"),
    "paint": ("Paint", "PrePaint", "Layerize", "PaintImage", "CompositeLayers", "UpdateLayer", "Commit",
              "RasterTask", "Decode Image", "ImageDecodeTask", "PaintSetup"),
    "GC": ("MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCFinalizeMC", "V8.GCIncrementalMarking", "BlinkGC.AtomicPhase",
           "V8.GC_MC_BACKGROUND_MARKING", "V8.GCCompactor", "V8.GC_SCAVENGER", "V8.GC_MARK_COMPACTOR", "BlinkGC.Sweep"),
}
PHASE_OF = {name: phase for phase, names in PHASES.items() for name in names}


def record(page, action):
    """Run ``action()`` (a load, some edits) with tracing on; return the trace events."""
    session = page.context.new_cdp_session(page)
    events, done = [], []
    session.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
    session.on("Tracing.tracingComplete", lambda message: done.append(True))
    session.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES}, "transferMode": "ReportEvents"})
    action()
    session.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    return events


def _url_of(event):
    data = (event.get("args") or {}).get("data") or {}
    return data.get("url") or data.get("scriptName") or (event.get("args") or {}).get("fileName") or ""


def _page_thread(events, page_url):
    """(pid, tid) of the renderer main thread showing ``page_url``, and the ts its work is counted from: the
    navigation start when the trace holds the page's load, else the trace's first event."""
    parses = [e for e in events if e.get("name") == "ParseHTML"
              and page_url in ((e.get("args") or {}).get("beginData") or {}).get("url", "")]
    if parses:
        pid, tid = parses[0]["pid"], parses[0]["tid"]
        starts = [e["ts"] for e in events if e.get("name") == "navigationStart" and e["pid"] == pid
                  and e["ts"] <= parses[0]["ts"]]
        return pid, tid, (max(starts) if starts else parses[0]["ts"])
    origin = "/".join(page_url.split("/")[:3]) + "/"
    calls = [e for e in events if e.get("name") in ("FunctionCall", "EvaluateScript") and _url_of(e).startswith(origin)
             and e.get("args", {}).get("data", {}).get("frame")]  # the page's frame, not one of its workers
    if not calls:
        raise ValueError(f"the trace shows no script of {origin} running in a page")
    return calls[0]["pid"], calls[0]["tid"], min(e["ts"] for e in events if e.get("ts"))


def _complete_events(events, pid, tid):
    """The thread's duration events as [ts, end, name, url] sorted outermost first (B/E pairs joined)."""
    found, open_events = [], []
    for e in events:
        if e.get("pid") != pid or e.get("tid") != tid:
            continue
        if e.get("ph") == "X" and "dur" in e:
            found.append([e["ts"], e["ts"] + e["dur"], e["name"], _url_of(e)])
        elif e.get("ph") == "B":
            open_events.append(e)
        elif e.get("ph") == "E" and open_events:
            b = open_events.pop()
            found.append([b["ts"], e["ts"], b["name"], _url_of(b)])
    found.sort(key=lambda f: (f[0], -f[1]))
    return found


def self_times(events, pid, tid):
    """[(top-level task start, end, {(url, phase): self µs})] for every top-level task of the thread."""
    tasks, stack = [], []  # stack entries: [end, phase, url, child-cover accumulator index]
    for ts, end, name, url in _complete_events(events, pid, tid):
        while stack and stack[-1]["end"] <= ts:
            stack.pop()
        if not stack:
            tasks.append((ts, end, defaultdict(float)))
            phase, inherited_url = PHASE_OF.get(name, "other"), url
        else:
            parent = stack[-1]
            parent_key = (parent["url"], parent["phase"])
            tasks[-1][2][parent_key] -= min(end, parent["end"]) - ts  # the child's time is not the parent's own
            phase = PHASE_OF.get(name, parent["phase"])
            inherited_url = url or parent["url"]
        end = min(end, stack[-1]["end"]) if stack else end
        tasks[-1][2][(inherited_url, phase)] += end - ts
        stack.append({"end": end, "phase": phase, "url": inherited_url})
    return tasks


def _short(url):
    return url.rsplit("/", 1)[-1][:48] or "(no script)"


def summarise(events, page_url, top=8):
    """Lines of text: the main thread by phase and by script URL, its long tasks, and the other threads' busy time."""
    pid, tid, nav = _page_thread(events, page_url)
    tasks = self_times(events, pid, tid)
    by_phase, by_url = defaultdict(float), defaultdict(float)
    for _, _, parts in tasks:
        for (url, phase), micros in parts.items():
            by_phase[phase] += micros
            by_url[_short(url)] += micros
    lines = [f"main thread of {page_url}: {sum(by_phase.values()) / 1000:.0f} ms busy in {len(tasks)} tasks"]
    lines.append("  by phase: " + ", ".join(f"{p} {ms / 1000:.0f}" for p, ms in sorted(by_phase.items(),
                                                                                      key=lambda i: -i[1])))
    lines.append("  by script: " + ", ".join(f"{u} {ms / 1000:.0f}" for u, ms in sorted(by_url.items(),
                                                                                      key=lambda i: -i[1])[:top]))
    long_tasks = [(start, end, parts) for start, end, parts in tasks if end - start > LONG_TASK_MS * 1000]
    lines.append(f"  long tasks (> {LONG_TASK_MS} ms): {len(long_tasks)}, sum "
                 f"{sum(end - start for start, end, _ in long_tasks) / 1000:.0f} ms")
    for start, end, parts in long_tasks:
        biggest = sorted(parts.items(), key=lambda i: -i[1])[:4]
        lines.append(f"    at {(start - nav) / 1000:6.0f} ms, {(end - start) / 1000:4.0f} ms: " + ", ".join(
            f"{_short(url)} {phase} {micros / 1000:.0f}" for (url, phase), micros in biggest))
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["pid"] == pid}
    busy, count, inner = defaultdict(float), defaultdict(int), defaultdict(lambda: defaultdict(float))
    for (thread_pid, thread_tid), name in names.items():
        if thread_tid != tid:
            count[name] += 1
            for _, _, parts in self_times(events, thread_pid, thread_tid):
                for (_, phase), micros in parts.items():
                    busy[name] += micros
            for e in events:  # the thread's own named work, to tell wasm compiling from Python running
                if (e.get("pid"), e.get("tid")) == (thread_pid, thread_tid) and e.get("ph") == "X" and e.get("dur"):
                    inner[name][e["name"]] += e["dur"]
    for name, micros in sorted(busy.items(), key=lambda i: -i[1]):
        if micros > 20_000:
            named = sorted(((v, k) for k, v in inner[name].items() if "RunTask" not in k), reverse=True)[:3]
            lines.append(f"  other threads, {count[name]} x {name}: {micros / 1000:.0f} ms busy; largest named: "
                         + ", ".join(f"{k} {v / 1000:.0f}" for v, k in named))
    return lines


def save(events, path):
    with open(path, "w") as out:
        json.dump({"traceEvents": events}, out)
