"""Cells from a mouse and a finger: a click or a tap into a cell selects its value, as arriving by keyboard does, so
typing replaces it; a second click or tap on the focused cell places the caret. Typed at a person's pace. The engine
is kept from loading (cells are read without it)."""
import pytest
from browser_pages import open_without_engine

pytestmark = pytest.mark.browser

PACE_MS = 120  # between keys, as a person types
PAUSE_MS = 700  # before a second tap: taps closer than the double-tap time select a word, as a double click does
IDS_T1 = '.lw-widget[data-kind="embedding"] .lw-cell[data-input="ids"][data-col="1"]'  # ids = [2, 0, 2]
SELECTION = "el => [el.selectionStart, el.selectionEnd, el.value.length]"


def value_of_ids(page):
    return page.evaluate("Layerwise.widgets().find(w => w.spec.name === 'embedding').values.ids")


def test_a_click_selects_the_value_and_a_second_click_places_the_caret(watched, site):
    page = watched.page
    open_without_engine(watched, site, "embedding")
    cell = page.locator(IDS_T1)
    assert cell.input_value() == "0"
    cell.click()
    assert cell.evaluate(SELECTION) == [0, 1, 1]  # the whole value, ready to be replaced
    page.keyboard.type("1", delay=PACE_MS)
    assert cell.input_value() == "1" and value_of_ids(page) == [2, 1, 2]  # not 10 or 01

    cell.click()  # on the focused cell: the caret goes where the pointer is, nothing is selected
    start, end, _ = cell.evaluate(SELECTION)
    assert start == end
    page.keyboard.type("2", delay=PACE_MS)
    assert sorted(cell.input_value()) == ["1", "2"]  # inserted beside the 1, which stays
    page.keyboard.press("Escape")  # the value the cell had when it was entered
    assert cell.input_value() == "0" and value_of_ids(page) == [2, 0, 2]


def test_after_a_click_the_arrows_move_between_cells_at_once(watched, site):
    page = watched.page
    open_without_engine(watched, site, "embedding")
    page.locator(IDS_T1).click()
    page.keyboard.press("ArrowRight")  # the text is selected: navigation, as after Tab
    assert page.evaluate("[document.activeElement.dataset.input, document.activeElement.dataset.col]") == ["ids", "2"]


def test_a_tap_selects_the_value_and_a_second_tap_places_the_caret(watched_phone, site):
    page = watched_phone.page
    open_without_engine(watched_phone, site, "embedding")
    cell = page.locator(IDS_T1)
    cell.scroll_into_view_if_needed()
    cell.tap()
    assert page.evaluate("document.activeElement.dataset.input") == "ids"
    assert cell.evaluate(SELECTION) == [0, 1, 1]
    page.keyboard.type("1", delay=PACE_MS)
    assert cell.input_value() == "1" and value_of_ids(page) == [2, 1, 2]  # a phone made it 10 or 51 before

    page.wait_for_timeout(PAUSE_MS)
    cell.tap()
    start, end, _ = cell.evaluate(SELECTION)
    assert start == end
    page.keyboard.type("2", delay=PACE_MS)
    assert sorted(cell.input_value()) == ["1", "2"]


SIZES = """el => [...el.querySelectorAll('.lw-cell, .lw-size')].map(e => e.getBoundingClientRect().height)"""


def test_a_phone_gets_cells_and_buttons_a_finger_can_hit_and_no_keyboard_tips(watched_phone, site):
    page = watched_phone.page
    open_without_engine(watched_phone, site, "linear")
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    assert min(widget.evaluate(SIZES)) >= 40  # 24 px before: WCAG's minimum, tight for a thumb
    cell = widget.locator('.lw-cell[data-input="X"]').first
    cell.scroll_into_view_if_needed()
    cell.tap()
    assert widget.locator(".lw-grid-tip").is_hidden()  # arrows, F2 and Tab mean nothing without a keyboard


def test_a_desktop_keeps_its_compact_cells(watched, site):
    open_without_engine(watched, site, "linear")
    assert max(watched.page.locator('.lw-widget[data-kind="linear"]').first.evaluate(SIZES)) < 32
