"""Typing at a person's speed into live widgets (needs PYODIDE_DIST): an answer that arrives for an older, valid
value of a cell never replaces the error of the value the cell holds now.

The keys go through Chromium's real keyboard with 60-100 ms between them (seeded), the pace at which the old widget
showed the result for `1e30` beside a cell reading `1e309` about one time in three on the attention widget."""
import random

import pytest
from browser_pages import wait_for_engine

pytestmark = [pytest.mark.browser, pytest.mark.live]

# (kind, input, row, col): several widgets, the attention head first (its deferred gradient check keeps the worker
# busy for a while after each result, so answers arrive late most often there).
TARGETS = [("attention", "q", 1, 0), ("layernorm", "x", 0, 1), ("linear", "X", 0, 0), ("softmax", "x", 1, 2)]
ROUNDS = 3  # per widget

# Record every moment the widget shows outputs as current (not dimmed) while one of its cells is marked bad.
WATCH = """el => {
    window.__violations = window.__violations || [];
    new MutationObserver(() => {
        const results = el.querySelector('.lw-results');
        const bad = el.querySelector('.lw-cell.lw-bad');
        if (bad && !results.classList.contains('lw-stale')) {
            window.__violations.push([el.dataset.widgetId, bad.value, el.querySelector('.lw-message').textContent]);
        }
    }).observe(el, {subtree: true, childList: true, attributes: true, characterData: true});
}"""
QUIET = """el => { const w = Layerwise.widgets().find(w => w.el === el); return !w.inFlight && !w.dirty; }"""


def type_like_a_person(page, text, rng):
    for key in text:
        page.keyboard.type(key)
        page.wait_for_timeout(rng.uniform(60, 100))


@pytest.mark.parametrize("kind, name, row, col", TARGETS)
def test_a_late_answer_never_hides_the_error_of_the_cell_as_it_is_now(live, watched, kind, name, row, col):
    path = live.page_with_kind(kind) or pytest.skip(f"no page shows the {kind} widget")
    page, rng = watched.page, random.Random(f"{kind}-typing")
    page.goto(live.url + path)
    widget = page.locator(f'.lw-widget[data-kind="{kind}"]').first
    widget.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    page.evaluate(WATCH, widget.element_handle())
    cell = widget.locator(f'.lw-cell[data-input="{name}"][data-row="{row}"][data-col="{col}"]')
    # the message names the cell by the grid's own headers (t1, j0), read from the page
    headers = cell.evaluate("""box => [box.closest('tr').querySelector('th').textContent,
                                       box.closest('table').tHead.rows[0].cells[box.closest('td').cellIndex].textContent]""")
    where = f"{name}[{headers[0]}, {headers[1]}]"
    for _ in range(ROUNDS):
        cell.click()
        page.keyboard.press("Control+a")
        type_like_a_person(page, "1e30", rng)
        type_like_a_person(page, "9", rng)  # 1e309: not a finite number
        page.wait_for_function(QUIET, arg=widget.element_handle())
        page.wait_for_timeout(300)  # any answer still on its way has had time to arrive
        assert cell.input_value() == "1e309"
        assert widget.locator(".lw-message").text_content() == f"{where}: '1e309' is too large to be a finite number"
        assert "lw-stale" in widget.locator(".lw-results").get_attribute("class")
        # back to a valid value: the next answer is shown
        page.keyboard.press("Backspace")
        page.wait_for_function("el => !el.querySelector('.lw-results').classList.contains('lw-stale')",
                               arg=widget.element_handle())
    assert page.evaluate("window.__violations") == []
