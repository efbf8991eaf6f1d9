"""Editing without the engine: keys move between cells, shapes propagate through linked dimensions, a link and
localStorage restore the exact example, reset forgets it. The engine is kept from loading (its worker script is refused)."""
import json

import pytest
from browser_pages import instant_go, open_without_engine

pytestmark = pytest.mark.browser


@pytest.fixture
def linear_page(watched, site):
    return watched.page, site.url + open_without_engine(watched, site, "linear")


def focused(page):
    return page.evaluate("[document.activeElement.dataset.input, +document.activeElement.dataset.row, "
                         "+document.activeElement.dataset.col]")


def test_arrow_keys_and_enter_move_between_cells(linear_page):
    page, _ = linear_page
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    widget.locator('.lw-cell[data-input="X"][data-row="0"][data-col="0"]').click()
    page.keyboard.press("ArrowDown")
    assert focused(page) == ["X", 1, 0]
    page.keyboard.press("ArrowUp")
    assert focused(page) == ["X", 0, 0]
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")
    assert focused(page) == ["X", 0, 1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowLeft")
    assert focused(page) == ["X", 0, 0]
    page.keyboard.press("Enter")
    assert focused(page) == ["X", 1, 0]
    page.keyboard.press("Shift+Enter")
    assert focused(page) == ["X", 0, 0]
    page.keyboard.press("Tab")  # a matrix is one tab stop: Tab leaves it for X's resize buttons
    assert page.evaluate("document.activeElement.closest('[role=toolbar]').getAttribute('aria-label')") == "Size of X"


def test_adding_a_column_to_x_adds_a_row_to_w(linear_page):
    page, _ = linear_page
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    shapes = lambda: widget.locator(".lw-input .lw-shape").all_text_contents()  # noqa: E731
    assert shapes() == ["(2, 2)", "(2, 3)", "(3,)", "(2, 3)"]  # X, W, b, dY of the worked example
    widget.locator('.lw-input[data-name="X"] button', has_text="+ column").click()
    assert shapes() == ["(2, 3)", "(3, 3)", "(3,)", "(2, 3)"]
    widget.locator('.lw-input[data-name="W"] button', has_text="+ column").click()
    assert shapes() == ["(2, 3)", "(3, 4)", "(4,)", "(2, 4)"]
    widget.locator('.lw-input[data-name="dY"] button', has_text="− row").click()
    assert shapes() == ["(1, 3)", "(3, 4)", "(4,)", "(1, 4)"]
    assert widget.locator('.lw-input[data-name="X"] button', has_text="− row").is_disabled()  # T >= 1
    new_cell = widget.locator('.lw-cell[data-input="W"][data-row="2"][data-col="3"]')
    assert new_cell.input_value() == "0"


def test_a_link_and_local_storage_restore_the_example_and_reset_forgets_it(linear_page, watched, site):
    page, url = linear_page
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    widget_id = widget.get_attribute("data-widget-id")
    cell = widget.locator('.lw-cell[data-input="W"][data-row="1"][data-col="2"]')
    cell.fill("-2.5")
    page.wait_for_function(f"location.hash.startsWith('#lw-{widget_id}=')", timeout=5000)  # once typing pauses
    fragment = page.evaluate("location.hash")
    edited = json.loads(page.evaluate("decodeURIComponent(location.hash.split('=')[1])"))
    assert edited["W"][1][2] == -2.5
    assert json.loads(page.evaluate(f"localStorage.getItem('layerwise:' + location.pathname + ':{widget_id}')")) == edited

    other = watched.context.new_page()  # same storage, the link's fragment
    other.goto(url + fragment)
    other.wait_for_function("document.querySelector('.lw-reset:enabled')")
    restored = other.locator(f'.lw-widget[data-widget-id="{widget_id}"]')
    assert restored.locator('.lw-cell[data-input="W"][data-row="1"][data-col="2"]').input_value() == "-2.5"
    assert "lw-stale" in restored.locator(".lw-results").get_attribute("class")
    other.close()

    page.goto(url)  # no fragment: localStorage brings the edit back
    page.wait_for_function("document.querySelector('.lw-reset:enabled')")
    assert widget.locator('.lw-cell[data-input="W"][data-row="1"][data-col="2"]').input_value() == "-2.5"
    widget.locator(".lw-reset").click()
    assert widget.locator('.lw-cell[data-input="W"][data-row="1"][data-col="2"]').input_value() == "0"
    assert page.evaluate("location.hash") == ""
    assert page.evaluate(f"localStorage.getItem('layerwise:' + location.pathname + ':{widget_id}')") is None
    assert "lw-stale" not in widget.locator(".lw-results").get_attribute("class")


# W[1][2] as the page's link holds it (null without one)
LINKED_W12 = "(location.hash.includes('=') ? JSON.parse(decodeURIComponent(location.hash.split('=')[1]))['W'][1][2] : null)"


def test_the_link_is_written_when_typing_pauses_and_a_reload_or_return_before_that_keeps_the_newest_values(
        linear_page, site):
    page, url = linear_page
    cell = page.locator('.lw-widget[data-kind="linear"] .lw-cell[data-input="W"][data-row="1"][data-col="2"]')
    cell.fill("-2.5")
    page.wait_for_function(f"{LINKED_W12} === -2.5", timeout=5000)
    first_link = page.evaluate("location.hash")

    def type_without_a_pause(text):
        page.evaluate("Layerwise.pause.ms = 600_000")  # the reader's pause does not come within this test
        cell.select_text()  # typing replaces the text
        page.keyboard.type(text, delay=80)
        assert cell.input_value() == text

    type_without_a_pause("7")
    assert page.evaluate(LINKED_W12) == -2.5  # the link waits for the pause
    page.reload()
    page.wait_for_function("document.querySelector('.lw-reset:enabled')")
    assert cell.input_value() == "7"  # from storage: the link the reload reopened was behind it
    page.wait_for_function(f"{LINKED_W12} === 7")  # and the link caught up as the page was set up

    type_without_a_pause("8")
    instant_go(page, site, site.page_with_kind("embedding"))
    page.evaluate("window.__widgetsBefore = Layerwise.widgets()")
    page.go_back()  # instant navigation brings the page back in place
    page.wait_for_function("""() => Layerwise.widgets() !== window.__widgetsBefore
        && document.querySelector('.lw-widget[data-kind="linear"] .lw-reset:enabled')""")
    assert cell.input_value() == "8"
    page.wait_for_function(f"{LINKED_W12} === 8")

    type_without_a_pause("9")
    page.goto("about:blank")  # the same tab: what it noted of the page's link is still there
    page.goto(url + first_link)  # but a link opened meanwhile is followed as always
    page.wait_for_function("document.querySelector('.lw-reset:enabled')")
    assert cell.input_value() == "-2.5"
