"""100+ bad inputs typed or pasted into a real widget in Chromium: each gives the right message, no uncaught
error, no executed payload. Cell validation is the browser's own work, so the engine is kept from loading."""
import json
import random

import pytest
from browser_pages import open_without_engine

from engine.errors import LayerwiseError
from engine.examples import get_kind

pytestmark = pytest.mark.browser

NOT_A_NUMBER = [
    "abc", "one", "1.2.3", "--1", "+-1", "1e", "e5", ".", "-", "+", "1e+", "0x10", "0b1", "1_000", "1,5", "1 2",
    "2*3", "1/0", "(1)", "[1]", "{}", "true", "null", "NaN", "nan", "inf", "-inf", "Infinity", "-Infinity",
    "∞", "٣", "1O", "l", "$1", "1%", "½", "1e3.5", "0x", "１",
    "<img src=x onerror=\"window.__pwned=1\">", "<script>window.__pwned=1</script>", "<b>1</b>",
    "\"; window.__pwned=1; \"", "'); window.__pwned=1; //", "${window.__pwned=1}", "{{7*7}}",
    "__import__('os').system('true')", "import os", "exec('1')", "1; import js", "\\x31", "%31", "&#49;",
    "javascript:window.__pwned=1", "</td></tr><script>window.__pwned=1</script>", "a" * 60,
]
TOO_LARGE = ["1e309", "-1e309", "1e400", "9" * 400, "1.8e308"]
EMPTY = ["", " ", "   ", "\t"]
RAGGED = [  # text, the first ragged line, its count, line 1's count
    ("1 2\n3", 2, "1 value", "2 values"), ("1\t2\t3\n4\t5", 2, "2 values", "3 values"),
    ("1,2\n3,4,5", 2, "3 values", "2 values"), ("1 2\n3 4\n5", 3, "1 value", "2 values"),
    ("1\n2 3", 2, "2 values", "1 value"), ("1;2\n3", 2, "1 value", "2 values"),
]


def widget_with_matrix(site):
    """The linear example if a page has one, else any widget with a float matrix input of at least 2 rows."""
    for kind in ("linear", None):
        for path in ([site.page_with_kind(kind)] if kind else site.pages_with_widgets()):
            if not path:
                continue
            html = (site.root / path / "index.html").read_text(encoding="utf-8")
            for chunk in html.split('class="lw-widget"')[1:]:
                spec = json.loads(_attr(chunk, "data-spec"))
                start = json.loads(_attr(chunk, "data-start"))
                for index, operand in enumerate(spec["inputs"]):
                    if len(operand["dims"]) == 2 and not operand["integer"] and len(start[operand["name"]]) >= 2:
                        return path, _attr(chunk, "data-widget-id"), spec, start, operand
    pytest.fail("no widget with a float matrix input of two or more rows")


def _attr(chunk, name):
    from html import unescape
    return unescape(chunk.split(f'{name}="', 1)[1].split('"', 1)[0])


@pytest.fixture
def matrix_widget(watched, site):
    path, widget_id, spec, start, operand = widget_with_matrix(site)
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())  # validation must not need the engine
    watched.page.goto(site.url + path)
    watched.page.wait_for_function("document.querySelector('.lw-reset:enabled')")
    return watched.page, widget_id, spec, start, operand


def expected_message(where, text):
    shown = text.strip().replace("\u2212", "-")
    shown = shown[:24] + "…" if len(shown) > 24 else shown
    if text in EMPTY:
        return f"{where} is empty"
    if text in TOO_LARGE:
        return f"{where}: '{shown}' is too large to be a finite number"
    return f"{where}: '{shown}' is not a number"


TYPE_CELLS = """([widgetId, name, row, col, texts]) => {
    const widget = document.querySelector(`.lw-widget[data-widget-id="${widgetId}"]`);
    const cell = () => widget.querySelector(`.lw-cell[data-input="${name}"][data-row="${row}"][data-col="${col}"]`);
    const original = cell().value;
    const seen = [];
    for (const text of texts) {
        cell().value = text;
        cell().dispatchEvent(new Event('input', {bubbles: true}));
        const message = widget.querySelector('.lw-message');
        seen.push({text, message: message.textContent, level: message.dataset.level,
                   marked: cell().classList.contains('lw-bad'), invalid: cell().getAttribute('aria-invalid'),
                   dimmed: widget.querySelector('.lw-results').classList.contains('lw-stale'),
                   outputs: widget.querySelectorAll('.lw-output td').length});
        cell().value = original;
        cell().dispatchEvent(new Event('input', {bubbles: true}));
        seen[seen.length - 1].clearedAfter = !cell().classList.contains('lw-bad');
    }
    return {seen, injected: document.querySelectorAll('.lw-widget img, .lw-widget script, .lw-widget b').length,
            pwned: window.__pwned === 1};
}"""


def test_typed_bad_cells_are_named_and_nothing_runs(matrix_widget):
    page, widget_id, spec, start, operand = matrix_widget
    name, row, col = operand["name"], 1, 0
    rows, cols = (spec["dims"][symbol]["prefix"] for symbol in operand["dims"])
    where = f"{name}[{rows}{row}, {cols}{col}]"  # the grid's own 0-based headers
    cases = NOT_A_NUMBER + [f"  {text}\t" for text in NOT_A_NUMBER[:15]] + TOO_LARGE + EMPTY
    result = page.evaluate(TYPE_CELLS, [widget_id, name, row, col, cases])
    assert len(result["seen"]) >= 70
    for text, seen in zip(cases, result["seen"]):
        assert seen["message"] == expected_message(where, text), text
        assert seen["level"] == "error" and seen["marked"] and seen["invalid"] == "true", text
        assert seen["dimmed"] and seen["outputs"] > 0, "the last good outputs must stay visible, dimmed"
        assert seen["clearedAfter"], text
    assert result["injected"] == 0 and result["pwned"] is False


def test_values_outside_an_inputs_bounds_get_the_python_sides_words(watched, site):
    open_without_engine(watched, site, "training")  # its lr is bounded
    widget_id = watched.page.evaluate("Layerwise.widgets().find(w => w.spec.name === 'training').id")
    defaults = get_kind("training").defaults()
    cases = ["1.27", "-1", "0.00009", "0.05", "0.0001"]
    seen = watched.page.evaluate(TYPE_CELLS, [widget_id, "lr", 0, 0, cases])["seen"]
    for text, shown in zip(cases, seen):
        try:
            get_kind("training").bind({**defaults, "lr": float(text)})
            # The engine is blocked: a good value is not marked, and the only error said is that the engine failed.
            assert not shown["marked"], (text, shown)
            assert shown["level"] != "error" or "live engine could not load" in shown["message"], (text, shown)
        except LayerwiseError as error:
            assert shown["marked"] and shown["message"] == str(error).split(": ", 1)[1], (text, shown)


PASTE = """([widgetId, name, row, col, text]) => {
    const widget = document.querySelector(`.lw-widget[data-widget-id="${widgetId}"]`);
    const cell = widget.querySelector(`.lw-cell[data-input="${name}"][data-row="${row}"][data-col="${col}"]`);
    const data = new DataTransfer();
    data.setData('text/plain', text);
    cell.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
    const message = widget.querySelector('.lw-message').textContent;
    const shape = widget.querySelector(`.lw-input[data-name="${name}"] .lw-shape`).textContent;
    widget.querySelector('.lw-reset').click();
    return {message, shape, pwned: window.__pwned === 1};
}"""


def test_pasted_blocks_ragged_too_big_or_bad(matrix_widget):
    page, widget_id, spec, start, operand = matrix_widget
    name = operand["name"]
    for text, bad_line, bad_count, first_count in RAGGED:
        seen = page.evaluate(PASTE, [widget_id, name, 0, 0, text])
        assert seen["message"] == f"the pasted block is ragged: line {bad_line} has {bad_count} but line 1 has {first_count}"
    cols_dim = spec["dims"][operand["dims"][1]]
    wide = " ".join(["1"] * (cols_dim["max"] + 1))
    seen = page.evaluate(PASTE, [widget_id, name, 0, 0, wide])
    limit = f"allows at most {cols_dim['max']}" if cols_dim["resizable"] else "has a fixed"
    assert seen["message"].startswith(f"the pasted block needs {cols_dim['max'] + 1} columns in {name} from this "
                                      f"cell, but {name} {limit}"), seen
    seen = page.evaluate(PASTE, [widget_id, name, 0, 0, "1\tabc\n<img src=x onerror=window.__pwned=1>\t2"])
    rows, cols = (spec["dims"][symbol]["prefix"] for symbol in operand["dims"])
    assert seen["message"] == (f"{name}[{rows}0, {cols}1]: 'abc' is not a number; "
                               f"also wrong: {name}[{rows}1, {cols}0]")  # the <img> cell, named
    assert seen["pwned"] is False
    seen = page.evaluate(PASTE, [widget_id, name, 0, 0, "\n\n"])
    assert seen["message"] == "the pasted text is empty"


def test_shape_mismatches_give_the_same_message_as_the_python_engine(matrix_widget):
    """Values arriving from a link or localStorage are checked in the browser with the Python side's words."""
    page, widget_id, spec, start, operand = matrix_widget
    kind = get_kind(spec["name"])
    rng = random.Random(4)
    cases = []
    for _ in range(30):
        values = json.loads(json.dumps(start))
        victim = rng.choice([op for op in spec["inputs"] if op["dims"]])
        axis = rng.randrange(len(victim["dims"]))
        grow = rng.choice([1, 2, -1])
        value = values[victim["name"]]
        if len(victim["dims"]) == 1 or axis == 0:
            value[:] = value[:max(len(value) + grow, 1)] if grow < 0 else value + [value[-1]] * grow
        else:
            for r in value:
                r[:] = r[:max(len(r) + grow, 1)] if grow < 0 else r + [r[-1]] * grow
        try:
            kind.bind(values)
            continue  # this change happened to keep every link (or hit nothing): not a mismatch
        except LayerwiseError as error:
            cases.append((values, str(error).split(": ", 1)[1]))
    assert len(cases) >= 15
    messages = page.evaluate("([spec, all]) => all.map(v => Layerwise.cells.checkValues(spec, v))",
                             [spec, [values for values, _ in cases]])
    for (values, python_message), js_message in zip(cases, messages):
        assert js_message == python_message, values


def test_a_link_with_mismatched_shapes_is_reported_and_ignored(watched, site):
    path, widget_id, spec, start, operand = widget_with_matrix(site)
    values = json.loads(json.dumps(start))
    values[operand["name"]] = [row + [0] for row in values[operand["name"]]]
    try:
        get_kind(spec["name"]).bind(values)
        pytest.skip("this widget's matrix has no linked column dimension")
    except LayerwiseError as error:
        expected = str(error).split(": ", 1)[1]
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    fragment = f"#lw-{widget_id}=" + json.dumps(values).replace(" ", "")
    watched.page.goto(site.url + path + fragment)
    message = watched.page.locator(f'.lw-widget[data-widget-id="{widget_id}"] .lw-message')
    assert message.text_content() == f"The saved values of this example were not used: {expected}."


def test_every_bad_training_input_is_flagged_and_named(watched, site):
    page = watched.page
    open_without_engine(watched, site, "training")
    widget = page.locator('.lw-widget[data-kind="training"]').first
    for name, text in [("steps", "500"), ("batch_size", "100")]:  # bounded 1 to 120 and 1 to 16
        cell = widget.locator(f'.lw-cell[data-input="{name}"]')
        cell.click()
        page.keyboard.type(text, delay=60)
    flagged = widget.evaluate("el => [...el.querySelectorAll('.lw-cell.lw-bad')].map(c => c.dataset.input)")
    assert flagged == ["steps", "batch_size"]
    assert widget.locator(".lw-message").text_content() == ("steps must be from 1 to 120, got 500; "
                                                             "also wrong: batch_size")
    assert "()" not in widget.locator(".lw-inputs").inner_text()  # a single number has no shape to show


def test_a_bound_set_by_another_cell_is_checked_in_the_browser_and_again_when_that_cell_changes(watched, site):
    page = watched.page
    open_without_engine(watched, site, "training")
    widget = page.locator('.lw-widget[data-kind="training"]').first

    def type_into(name, text):
        widget.locator(f'.lw-cell[data-input="{name}"]').click()  # a click selects the value; typing replaces it
        page.keyboard.type(text, delay=60)
        page.keyboard.press("Enter")  # done with it: a single number stays, its value selected for the next try

    def flagged():
        return widget.evaluate("el => [...el.querySelectorAll('.lw-cell.lw-bad')].map(c => c.dataset.input)")

    # The reader's walk, row 42: with grad_clip wrong too, the warm-up beyond the steps went unflagged (only the
    # engine knew its bound, and nothing is sent while a cell is wrong)
    for name, text in [("steps", "10"), ("warmup_steps", "50"), ("grad_clip", "-1")]:
        type_into(name, text)
    assert flagged() == ["warmup_steps", "grad_clip"]
    with pytest.raises(LayerwiseError) as python_side:
        get_kind("training").bind({**get_kind("training").defaults(), "steps": 10, "warmup_steps": 50})
    assert widget.locator(".lw-message").text_content() == (str(python_side.value).split(": ", 1)[1]
                                                             + "; also wrong: grad_clip")
    type_into("steps", "60")  # the warm-up fits again without being touched
    assert flagged() == ["grad_clip"]
    type_into("steps", "20")
    assert flagged() == ["warmup_steps", "grad_clip"]
