"""Edits typed into a widget like a person: click a cell, select its text, type a new number key by key with
uneven pauses, each key held down for a moment, then think before the next edit. The widget recomputes on every
keystroke that leaves a valid number; an edit's latency is from the ``input`` event of its last keystroke to the
``layerwise:rendered`` event of the first request sent after it (so a render of an earlier, superseded keystroke
never counts).

Nothing is asked of the page while an edit is answered: the key is released after its hold and the result is read
after that. Playwright's own work in the page (a key-up right after the key-down, evaluating a script, polling
on every animation frame) runs on the page's main thread, and a trace of the earlier loop showed its tasks there,
between the keystroke and the worker's answer: a reader's browser runs none of them. (An interleaved A/B of the two
loops, 4 rounds of 40 LayerNorm edits, gave the same edit -> DOM, p50 9.3 ms, p95 14.5 and 14.7 ms: figures from
before the change compare.)"""
import random
import time

KEY_PAUSE_S = (0.06, 0.16)  # between keystrokes: a quick typist
KEY_HOLD_S = (0.07, 0.12)  # how long a key is held down (typists' key hold times are about 0.08-0.12 s)
THINK_S = (0.15, 0.4)  # between edits; the deferred gradient check runs here

# Installed on the page once: the last input event's time and every render's [sent, shown, next frame] times, with
# the ms its result spent in Python and the request's own times (Layerwise.engine.lastEdit: sent, worker start and
# end, answer received; null where the page does not expose them).
RECORDER = """() => {
  window.__benchEdits = {lastInput: 0, renders: []};
  document.addEventListener('input', (e) => { window.__benchEdits.lastInput = e.timeStamp; }, true);
  document.addEventListener('layerwise:rendered', (e) => {
    const shown = performance.now();
    const engine = (window.Layerwise && Layerwise.engine) || {};
    const render = [shown - e.detail.ms, shown, null, engine.pythonMs ?? null,
                    engine.lastEdit ? {...engine.lastEdit} : null];
    window.__benchEdits.renders.push(render);
    requestAnimationFrame(() => setTimeout(() => { render[2] = performance.now(); }));
  });
}"""
ANSWERED = """(since) => window.__benchEdits.renders.find((r) => r[0] >= since && r[2] !== null) || null"""


def new_value(rng, old):
    """A number a reader might type, different from the cell's current value."""
    while True:
        text = str(rng.choice([-3, -2, -1.5, -1, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4]))
        if text.endswith(".0"):
            text = text[:-2]
        try:
            if float(text) != float(old):
                return text
        except ValueError:
            return text


# An edit's steps, from its last keystroke's input event to the updated DOM; they add up to "to DOM".
STEPS = {"the page handles the keystroke": ("input", "sent"), "to the worker": ("sent", "workerStart"),
         "in the worker": ("workerStart", "workerEnd"), "back to the page's main thread": ("workerEnd", "received"),
         "answer into the DOM": ("received", "shown")}


def steps_of(input_at, shown, edit):
    """{step: ms} for one edit, or None when the page did not time its request."""
    if not edit:
        return None
    at = {**edit, "input": input_at, "shown": shown}
    return {step: at[end] - at[start] for step, (start, end) in STEPS.items()}


def type_edits(page, widget_selector, count, seed=0):
    """Type ``count`` edits into the first input matrix of the widget; return [(to DOM, to next frame, in Python,
    {step: ms})] in ms (in Python and the steps: None when the page does not say)."""
    rng = random.Random(seed)
    page.evaluate(RECORDER)
    cells = page.locator(f"{widget_selector} .lw-input").first.locator(".lw-cell")
    latencies = []
    for _ in range(count):
        cell = cells.nth(rng.randrange(cells.count()))
        cell.click()
        page.keyboard.press("Control+A")
        for key in new_value(rng, cell.input_value()):
            time.sleep(rng.uniform(*KEY_PAUSE_S))
            page.keyboard.down(key)  # key-down with its text: the input event, and the request to the worker
            time.sleep(rng.uniform(*KEY_HOLD_S))
            page.keyboard.up(key)
        last_input = page.evaluate("window.__benchEdits.lastInput")
        handle = page.wait_for_function(ANSWERED, arg=last_input, polling=20, timeout=30_000)
        sent, shown, frame, python, edit = handle.json_value()
        latencies.append((shown - last_input, frame - last_input, python, steps_of(last_input, shown, edit)))
        page.evaluate("window.__benchEdits.renders.length = 0")
        time.sleep(rng.uniform(*THINK_S))
    return latencies
