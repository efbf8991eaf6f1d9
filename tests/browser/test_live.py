"""The live engine for real: NumPy in Pyodide in Chromium (needs PYODIDE_DIST; skipped with the reason otherwise).

Every widget recomputes its starting values to exactly the pre-rendered strings; seeded random edits give the
CPython engine's numbers (1e-9, relative beyond 1); instant navigation keeps the one worker."""
import json
import random
import re

import numpy as np
import pytest
from browser_pages import instant_go, wait_for_engine

from engine.errors import LayerwiseError
from engine.examples import run

pytestmark = [pytest.mark.browser, pytest.mark.live]
GROUP_ORDER = ["step", "forward", "backward"]  # the order in which a widget lays out its blocks

SHOWN = "'.lw-results td, .lw-results .lw-arith, .lw-results .lw-note, .lw-results .lw-gradcheck'"
RECOMPUTE_ALL = """async () => {
    const report = [];
    for (const w of Layerwise.widgets()) {
        const before = [...w.el.querySelectorAll(%s)].map(e => e.textContent);
        w.dirty = true;
        await w.send();
        while (w.el.querySelector('.lw-gradcheck[data-pending]')) await new Promise(r => setTimeout(r, 5));
        const after = [...w.el.querySelectorAll(%s)].map(e => e.textContent);
        report.push({id: w.id, before, after, state: w.el.dataset.state, message: w.messageEl.textContent});
    }
    return report;
}""" % (SHOWN, SHOWN)
# Gradient-check gaps are round-off (~1e-10): Pyodide's NumPy sums matrix products in another order than CPython's
# BLAS, so their last digits may differ. Every other number must match exactly.
ROUND_OFF = re.compile(r"\d(\.\d+)?e-(0[6-9]|[1-9]\d)")


def comparable(texts):
    return [ROUND_OFF.sub("(round-off)", text) for text in texts]


def test_every_widget_goes_live_and_recomputes_the_prerendered_values(live, watched):
    page, paths = watched.page, live.pages_with_widgets()
    page.goto(live.url + paths[0])
    page.locator(".lw-widget").first.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    page.evaluate("window.__firstWorker = Layerwise.engine.worker")
    checked = 0
    for path in paths:
        if path != paths[0]:
            instant_go(page, live, path)
        for widget in page.evaluate(RECOMPUTE_ALL):
            assert widget["state"] == "live", (path, widget["id"], widget["message"])
            assert comparable(widget["after"]) == comparable(widget["before"]), (path, widget["id"])
            checked += 1
    assert checked >= len(paths)
    assert page.evaluate("Layerwise.engine.starts") == 1
    assert page.evaluate("Layerwise.engine.worker === window.__firstWorker"), "navigation restarted the worker"


def test_a_page_with_widgets_starts_its_engine_with_no_widget_on_screen(live, watched):
    """A reader at the top of a layer page finds its widgets live once they scroll down: the engine does not wait for
    a widget to come on screen; one worker serves the page."""
    page = watched.page
    page.goto(live.url + live.page_with_kind("layernorm"))  # no fragment: the page opens at its top
    assert page.evaluate("""() => [...document.querySelectorAll('.lw-widget')].every(el =>
        el.getBoundingClientRect().top > innerHeight)""")
    assert wait_for_engine(page)["state"] == "ready"
    assert page.evaluate("scrollY") == 0
    assert page.evaluate("Layerwise.engine.starts") == 1
    assert [w.url for w in page.workers].count(live.url + "assets/layerwise/worker.js") == 1
    assert page.evaluate("Layerwise.widgets().every(w => w.el.dataset.state === 'live')")


EDIT = """async ([widgetIndex, edits]) => {
    const w = Layerwise.widgets()[widgetIndex];
    const out = [];
    for (const [name, row, col, text] of edits) {
        const cell = w.el.querySelector(`.lw-cell[data-input="${name}"][data-row="${row}"][data-col="${col}"]`);
        const done = new Promise(resolve => w.el.addEventListener('layerwise:rendered', resolve, {once: true}));
        cell.value = text;
        cell.dispatchEvent(new Event('input', {bubbles: true}));
        await done;
        out.push({values: JSON.parse(JSON.stringify(w.values)), result: w.error ? null : w.lastResult,
                  message: w.messageEl.textContent,
                  cells: [...w.el.querySelectorAll('.lw-output td')].map(td => td.textContent)});
    }
    return out;
}"""


def _cells(value, ndim):
    """Every (row, col) index of an input as the widget's data attributes name them."""
    if ndim == 0:
        return [(0, 0)]
    if ndim == 1:
        return [(0, c) for c in range(len(value))]
    return [(r, c) for r in range(len(value)) for c in range(len(value[0]))]


def test_seeded_random_edits_match_the_cpython_engine(live, watched):
    page, rng = watched.page, random.Random(2026)
    page.goto(live.url + live.pages_with_widgets()[0])
    page.locator(".lw-widget").first.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    compared, mismatches = 0, []
    for path in live.pages_with_widgets():
        if page.url.split("#")[0] != live.url + path:
            instant_go(page, live, path)
        specs = page.evaluate("Layerwise.widgets().map(w => [w.spec, w.start])")
        for index, (spec, start) in enumerate(specs):
            floats = [op for op in spec["inputs"] if not op["integer"] and not op["text"]]
            if not floats:
                continue
            edits = []
            for _ in range(4):
                op = rng.choice(floats)
                row, col = rng.choice(_cells(start[op["name"]], len(op["dims"])))
                low, high = op["bounds"] or (-3, 3)  # declared bounds keep chaotic inputs (lr) tame
                value = rng.uniform(max(low, -3), min(high, 3))
                edits.append([op["name"], row, col, repr(min(max(round(value, 3), low), high))])
            for edit, seen in zip(edits, page.evaluate(EDIT, [index, edits])):
                where = f"{path} {spec['name']} edit {edit}"
                try:
                    expected = run(spec["name"], seen["values"])
                except LayerwiseError as error:
                    if not (seen["result"] is None and seen["message"] == str(error)):
                        mismatches.append(f"{where}: CPython raised {error!s}, the widget said {seen['message']!r}")
                    continue
                if seen["result"] is None:
                    mismatches.append(f"{where}: CPython computed, the widget said {seen['message']!r}")
                    continue
                for got, want in zip(seen["result"]["blocks"], expected["blocks"]):
                    wanted = np.array(want["values"], dtype=float)
                    # relative beyond 1: stds of 1e11 (initialisation) carry round-off of 1e-4 in absolute terms
                    gap = np.nanmax(np.abs(np.array(got["values"], dtype=float) - wanted)
                                    / np.maximum(1.0, np.abs(wanted)), initial=0.0)
                    if got["name"] != want["name"] or gap > 1e-9 or got["cells"] != want["cells"]:
                        mismatches.append(f"{where}: block {want['name']} differs by up to {gap:.2e} (relative "
                                          f"beyond 1), cells {'equal' if got['cells'] == want['cells'] else 'differ'}")
                in_page_order = sorted(expected["blocks"], key=lambda b: GROUP_ORDER.index(b["group"]))
                shown = [c for b in in_page_order for c in np.ravel(np.array(b["cells"], dtype=object)).tolist()]
                if seen["cells"] != shown:
                    mismatches.append(f"{where}: the page shows other strings than the result")
                compared += 1
    assert mismatches == [], "\n".join(mismatches)
    assert compared >= 8


def test_a_python_error_stays_in_its_widget(live, watched):
    path = live.page_with_kind("embedding")
    if not path:
        pytest.skip("no page shows the embedding example yet")
    page = watched.page
    page.goto(live.url + path)
    page.locator('.lw-widget[data-kind="embedding"]').first.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    index = page.evaluate("Layerwise.widgets().findIndex(w => w.spec.name === 'embedding')")
    start = page.evaluate(f"Layerwise.widgets()[{index}].start")
    vocab = len(start["E"])
    seen = page.evaluate(EDIT, [index, [["ids", 0, 0, str(vocab + 4)]]])[0]
    widget = page.locator(".lw-widget").nth(index)
    assert seen["message"] == (f"embedding_forward: ids must lie in [0, {vocab}) for a vocabulary of {vocab}, "
                               f"got {vocab + 4} at index (0,)")
    assert widget.get_attribute("data-state") == "error"
    assert widget.locator(".lw-results").get_attribute("class") == "lw-results lw-stale"
    recovered = page.evaluate(EDIT, [index, [["ids", 0, 0, "0"]]])[0]
    assert recovered["result"] is not None and widget.get_attribute("data-state") == "live"
    assert json.loads(json.dumps(recovered["values"]["ids"]))[0] == 0


def test_an_edit_made_while_the_engine_loads_is_applied_when_it_is_ready(live, watched):
    path = live.page_with_kind("linear") or pytest.skip("no page shows the linear example")
    page = watched.page
    page.goto(live.url + path)
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    widget.locator('.lw-cell[data-input="X"][data-row="0"][data-col="0"]').fill("5")  # focus starts the engine
    assert page.evaluate("Layerwise.engine.state") == "loading"
    assert widget.locator(".lw-message").text_content() == (
        "Your edit is kept; it is computed as soon as the live engine is ready.")
    assert wait_for_engine(page)["state"] == "ready"
    page.wait_for_function("el => el.dataset.state === 'live' && !el.querySelector('.lw-stale, [data-pending]')",
                           arg=widget.element_handle())
    start = json.loads(widget.get_attribute("data-start"))
    start["X"][0][0] = 5
    expected = [b for b in run("linear", start)["blocks"] if b["name"] == "Y"][0]["cells"]
    shown = widget.locator('.lw-output[data-name="Y"] td').all_text_contents()
    assert shown == [c for row in expected for c in row]


def test_a_worker_error_restarts_the_engine_and_widgets_keep_working(live, watched):
    path = live.page_with_kind("linear") or pytest.skip("no page shows the linear example")
    page = watched.page
    page.goto(live.url + path + "#widget-linear-1")
    assert wait_for_engine(page)["state"] == "ready"
    page.evaluate("Layerwise.engine.worker.dispatchEvent(new ErrorEvent('error', {message: 'simulated crash'}))")
    assert page.evaluate("Layerwise.engine.state") == "loading" and page.evaluate("Layerwise.engine.starts") == 2
    assert wait_for_engine(page)["state"] == "ready"
    index = page.evaluate("Layerwise.widgets().findIndex(w => w.spec.name === 'linear')")
    seen = page.evaluate(EDIT, [index, [["b", 0, 0, "10"]]])[0]
    assert seen["result"] is not None and seen["values"]["b"][0] == 10


CHANGED = """() => Layerwise.widgets()[0].el.querySelectorAll('.lw-output').values().toArray().flatMap(figure =>
    [...figure.querySelectorAll('tbody tr')].flatMap((tr, r) => [...tr.querySelectorAll('td')].flatMap((td, c) =>
        td.classList.contains('lw-changed') ? [[figure.dataset.name, r, c]] : [])))"""


def test_an_edit_highlights_exactly_the_output_cells_it_changed(live, watched):
    page = watched.page
    page.goto(live.url + "layers/linear/")
    page.locator(".lw-widget").first.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    assert page.evaluate("Layerwise.widgets()[0].spec.name") == "linear"
    # X = [[1, 2], [0, 1]], W = [[1, 0, 2], [-1, 1, 0]], b = [0, 1, -1], dY = [[1, 0, 1], [0, 2, -1]].
    # X[1][0]: 0 -> 1 turns row 1 of XW from [-1, 1, 0] into [0, 1, 2] (and of Y = XW + b from [-1, 2, -1] into
    # [0, 2, 1]); row 0 of dW = X^T dY from [1, 0, 1] into [1, 2, 0]; dX = dY W^T and db do not involve X.
    page.evaluate(EDIT, [0, [["X", 1, 0, "1"]]])
    assert sorted(page.evaluate(CHANGED)) == sorted([["XW", 1, 0], ["XW", 1, 2], ["Y", 1, 0], ["Y", 1, 2],
                                                     ["dW", 0, 1], ["dW", 0, 2]])
    # the same value again changes nothing, so nothing stays marked
    page.evaluate(EDIT, [0, [["X", 1, 0, "1.0"]]])
    assert page.evaluate(CHANGED) == []


def test_a_typed_edit_times_its_request_in_order_on_one_clock(live, watched):
    """Layerwise.engine.lastEdit (read by the benchmark) places the worker's span among the page's own steps: the
    worker's clock is brought to the page's, so the steps follow one another between the keystroke and the DOM."""
    page = watched.page
    page.goto(live.url + "layers/linear/")
    cell = page.locator('.lw-widget .lw-cell[data-input="X"][data-row="1"][data-col="0"]').first
    cell.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    page.evaluate("""() => { window.__seen = [];
        document.addEventListener('input', (e) => window.__seen.push(['input', e.timeStamp]), true);
        document.addEventListener('layerwise:rendered', () => window.__seen.push(['shown', performance.now(),
                                                                                  {...Layerwise.engine.lastEdit}]));
    }""")
    cell.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.wait_for_function("window.__seen.some(([what]) => what === 'shown')")
    (_, typed), (_, shown, edit) = page.evaluate("window.__seen")
    times = [typed, edit["sent"], edit["workerStart"], edit["workerEnd"], edit["received"], shown]
    # 0.5 ms of slack: without cross-origin isolation each side's clock is coarsened to 0.1 ms, and a message can
    # reach the worker in less than that; a worker time left on its own clock would be off by far more
    assert all(later >= earlier - 0.5 for earlier, later in zip(times, times[1:])), times
    assert edit["workerEnd"] - edit["workerStart"] >= page.evaluate("Layerwise.engine.pythonMs") - 0.2


def test_a_live_edit_reaches_local_storage_once_its_result_is_shown_and_the_link_when_typing_pauses(live, watched):
    page = watched.page
    page.goto(live.url + "layers/linear/")
    page.locator(".lw-widget").first.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    widget_id = page.evaluate("Layerwise.widgets()[0].id")
    page.evaluate(EDIT, [0, [["W", 0, 1, "-3.25"], ["b", 0, 2, "4"]]])
    saved = json.loads(page.evaluate(f"localStorage.getItem('layerwise:' + location.pathname + ':{widget_id}')"))
    assert saved["W"][0][1] == -3.25 and saved["b"][2] == 4
    page.wait_for_function(f"location.hash.startsWith('#lw-{widget_id}=')", timeout=5000)
    fragment = page.evaluate("location.hash")
    page.goto("about:blank")
    page.goto(live.url + "layers/linear/" + fragment)
    restored = page.locator(f'.lw-widget[data-widget-id="{widget_id}"]')
    assert restored.locator('.lw-cell[data-input="W"][data-row="0"][data-col="1"]').input_value() == "-3.25"
    assert wait_for_engine(page)["state"] == "ready"
    page.wait_for_function("Layerwise.widgets()[0].el.dataset.state === 'live' && Layerwise.widgets()[0].lastResult")
    # Y = XW + b with X = [[1, 2], [0, 1]], W = [[1, -3.25, 2], [-1, 1, 0]], b = [0, 1, 4]: row 0 is
    # [1 - 2, -3.25 + 2 + 1, 2 + 0 + 4] = [-1, -0.25, 6]
    y = page.evaluate("Layerwise.widgets()[0].lastResult.blocks.find(b => b.name === 'Y').cells[0]")
    assert y == ["-1.0000", "-0.2500", "6.0000"]


# A test-only way to crash the worker for real, out of readers' reach (their cells send flat arrays of numbers only):
# the widget's next request is rewritten on its way to the worker into JSON nested 100 000 deep, which Python's JSON
# reader descends through C until the WebAssembly stack is exhausted. That is a fatal error of the Pyodide runtime
# (every later call fails), not a Python exception the worker could report and survive.
CRASH_NEXT_REQUEST = """() => {
    const worker = Layerwise.engine.worker;
    const post = worker.postMessage.bind(worker);
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    worker.postMessage = (message) => post(message.type === 'compute' ? {...message, inputs: deep} : message);
}"""


# A worker that stops answering (Python busy in a loop nothing on the page can interrupt) is stood in for by
# dropping the widget's next request on its way to the worker: no answer comes back, as none would.
DROP_NEXT_REQUEST = """() => {
    const worker = Layerwise.engine.worker;
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message) => { if (message.type !== 'compute') post(message); };
}"""


LINES = """el => { const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


def live_linear_widget(live, watched):
    """The page and the first Linear widget, once the engine is ready."""
    path = live.page_with_kind("linear") or pytest.skip("no page shows the linear example")
    page = watched.page
    page.goto(live.url + path + "#widget-linear-1")
    assert wait_for_engine(page)["state"] == "ready"
    return page, page.locator('.lw-widget[data-kind="linear"]').first


def assert_next_edit_is_answered(page, widget):
    """After the engine was replaced, typing b[0] = 10 is computed by the fresh one."""
    index = page.evaluate("Layerwise.widgets().findIndex(w => w.spec.name === 'linear')")
    seen = page.evaluate(EDIT, [index, [["b", 0, 0, "10"]]])[0]
    # X = [[1, 2], [0, 1]], W = [[1, 0, 2], [-1, 1, 0]], b = [10, 1, -1]: Y[0] = [1 - 2 + 10, 2 + 1, 2 - 1]
    assert seen["result"] is not None and widget.get_attribute("data-state") == "live"
    assert [b["cells"][0] for b in seen["result"]["blocks"] if b["name"] == "Y"] == [["9.0000", "3.0000", "1.0000"]]


def test_a_real_crash_of_the_python_runtime_is_told_in_one_line_and_the_next_edit_is_answered(live, watched):
    page, widget = live_linear_widget(live, watched)
    page.evaluate(CRASH_NEXT_REQUEST)
    widget.locator('.lw-cell[data-input="b"][data-row="0"][data-col="0"]').fill("7")
    page.wait_for_function("Layerwise.engine.crashes === 1")
    assert "Maximum call stack size exceeded" in page.evaluate("Layerwise.engine.crash")
    notice = page.locator(".lw-notice")
    assert notice.count() == 1 and notice.text_content().startswith("The live engine crashed (")
    assert "lw-stale" in widget.locator(".lw-results").get_attribute("class")  # that answer was lost
    assert wait_for_engine(page)["state"] == "ready"
    assert page.evaluate("Layerwise.engine.starts") == 2
    assert notice.count() == 1 and notice.text_content().startswith("The live engine crashed (Maximum call stack")
    assert notice.text_content().endswith("and was restarted: edit a value to recompute.")
    assert "\n" not in notice.text_content()
    assert page.evaluate(LINES, notice.element_handle()) == 1
    assert_next_edit_is_answered(page, widget)


def test_an_engine_that_stops_answering_is_replaced_and_the_readers_edit_is_kept(live, watched):
    page, widget = live_linear_widget(live, watched)
    page.evaluate("Layerwise.engine.computeTimeoutMs = 1500")  # the product waits 20 s
    page.evaluate(DROP_NEXT_REQUEST)
    cell = widget.locator('.lw-cell[data-input="b"][data-row="0"][data-col="0"]')
    cell.fill("7")
    page.wait_for_function("Layerwise.engine.crashes === 1")
    assert page.evaluate("Layerwise.engine.crash") == "no answer within 1.5 s"
    assert "lw-stale" in widget.locator(".lw-results").get_attribute("class")  # no answer is shown for 7
    assert cell.input_value() == "7"  # and the edit is still there
    assert wait_for_engine(page)["state"] == "ready"
    assert page.evaluate("Layerwise.engine.starts") == 2
    notice = page.locator(".lw-notice")
    assert notice.text_content() == ("The live engine crashed (no answer within 1.5 s) and was restarted: "
                                     "edit a value to recompute.")
    assert_next_edit_is_answered(page, widget)


TOKENIZER = '.lw-widget[data-kind="tokenizer"]'


def test_text_typed_into_the_tokenizer_gives_the_cpython_tokens_and_stays_text(live, watched):
    """A text cell is an ordinary text field: typed at a person's pace (caret moves, a character deleted, markup
    typed as text), each pause's result equals CPython's; too long a text is named in Python's words; Escape puts the
    text back; nothing typed ever runs as markup."""
    page = watched.page
    page.goto(live.url + live.page_with_kind("tokenizer"))
    box = page.locator(f"{TOKENIZER} .lw-cell.lw-text")
    box.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    box.click()
    page.keyboard.press("End")
    page.keyboard.type(" naïve ☃", delay=60)
    page.keyboard.press("ArrowLeft")  # the caret moves inside the text; a grid cell would move to another cell
    page.keyboard.press("Backspace")  # deletes the space before the snowman
    expected = "the other three naïve☃"

    def shown():
        page.wait_for_function(f"""(text) => {{ const w = Layerwise.widgets().find(w => w.spec.name === 'tokenizer');
            return w.values.text === text && !w.inFlight && !w.dirty; }}""", arg=expected)
        return page.evaluate(f"""() => {{ const w = Layerwise.widgets().find(w => w.spec.name === 'tokenizer');
            return {{values: w.values, message: w.messageEl.textContent, state: w.el.dataset.state,
                     cells: [...w.el.querySelectorAll('.lw-output td')].map(td => td.textContent),
                     notes: [...w.el.querySelectorAll('.lw-note')].map(p => p.textContent)}}; }}""")

    seen = shown()
    want = run("tokenizer", seen["values"])
    assert seen["values"] == {"text": expected, "vocab_size": 400} and seen["state"] == "live", seen
    assert seen["cells"] == [cell for block in want["blocks"] for cell in block["cells"]]
    assert seen["notes"] == want["notes"]
    page.keyboard.type("<img src=x onerror=window.__pwned=1>x" * 2)
    message = page.locator(f"{TOKENIZER} .lw-message")
    page.wait_for_function("(el) => el.textContent.includes('characters')", arg=message.element_handle())
    try:
        run("tokenizer", {"text": box.input_value(), "vocab_size": 400})
        raise AssertionError("a text this long should be refused")
    except LayerwiseError as error:
        assert message.text_content() == str(error).split(": ", 1)[1]
    page.keyboard.press("Escape")
    assert box.input_value() == "the other three"  # the text the field had when it was entered
    expected = "the other three"
    shown()
    page.keyboard.press("End")
    expected = "the other three<b>"
    page.keyboard.type("<b>", delay=40)
    seen = shown()
    assert seen["notes"] == run("tokenizer", seen["values"])["notes"]
    assert page.evaluate("window.__pwned") is None and page.locator(f"{TOKENIZER} .lw-results b").count() == 0
