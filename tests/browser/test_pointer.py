"""Cells from a mouse and a finger: a click or a tap into a cell selects its value, as arriving by keyboard does, so
typing replaces it; so does one on a cell whose edit Enter committed (a second try in the same cell); only one while
the reader is editing places the caret. Typed at a person's pace. The engine is kept from loading (cells are read
without it)."""
import pytest
from browser_pages import open_without_engine

pytestmark = pytest.mark.browser

PACE_MS = 120  # between keys, as a person types
PAUSE_MS = 700  # before a second tap: taps closer than the double-tap time select a word, as a double click does
IDS_T1 = '.lw-widget[data-kind="embedding"] .lw-cell[data-input="ids"][data-col="1"]'  # ids = [2, 0, 2]
SELECTION = "el => [el.selectionStart, el.selectionEnd, el.value.length]"


E_V2_I0 = '.lw-widget[data-kind="embedding"] .lw-cell[data-input="E"][data-row="2"][data-col="0"]'  # E's last row
TEMPERATURE = '.lw-widget[data-kind="generation"] .lw-cell[data-input="temperature"]'  # a single number


def value_of_ids(page):
    return page.evaluate("Layerwise.widgets().find(w => w.spec.name === 'embedding').values.ids")


def value_of(page, kind, name):
    return page.evaluate(f"Layerwise.widgets().find(w => w.spec.name === {kind!r}).values[{name!r}]")


def second_try(page, cell, press, first, second):
    """Type ``first`` into ``cell`` and press Enter, which keeps the focus there (a last row, a single number); then
    press the same cell again and type ``second``: the second try must replace the first, as the first replaced the
    start value."""
    press()
    page.keyboard.type(first, delay=PACE_MS)
    page.keyboard.press("Enter")
    assert cell.evaluate("el => el === document.activeElement")  # Enter stayed
    page.wait_for_timeout(PAUSE_MS)  # a person's pause: not a double click or a double tap
    press()
    assert cell.evaluate(SELECTION) == [0, len(first), len(first)]  # the whole committed value, not a caret
    page.keyboard.type(second, delay=PACE_MS)
    assert cell.input_value() == second  # "40.9" and "0.52" before


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


def test_a_second_try_in_the_same_cell_replaces_the_first_with_a_mouse(watched, site):
    page = watched.page
    open_without_engine(watched, site, "embedding")
    cell = page.locator(E_V2_I0)
    second_try(page, cell, cell.click, "0.9", "4")
    assert value_of(page, "embedding", "E")[2][0] == 4

    ids = page.locator(IDS_T1)
    page.locator(IDS_T1.replace('"1"]', '"0"]')).click()
    page.keyboard.press("ArrowRight")  # arrived at from the keyboard, then clicked: "1" became "1-1" before
    ids.click()
    page.keyboard.type("1", delay=PACE_MS)
    assert ids.input_value() == "1"


def test_a_second_try_in_a_single_number_replaces_the_first(watched, site):
    page = watched.page
    open_without_engine(watched, site, "generation")
    cell = page.locator(TEMPERATURE)
    second_try(page, cell, cell.click, "2", "0.5")
    assert value_of(page, "generation", "temperature") == 0.5


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


def test_a_second_try_in_the_same_cell_replaces_the_first_with_a_finger(watched_phone, site):
    page = watched_phone.page
    open_without_engine(watched_phone, site, "embedding")
    cell = page.locator(E_V2_I0)
    cell.scroll_into_view_if_needed()
    second_try(page, cell, cell.tap, "0.9", "4")
    assert value_of(page, "embedding", "E")[2][0] == 4


SIZES = """el => [...el.querySelectorAll('.lw-cell, .lw-size')].map(e => e.getBoundingClientRect().height)"""


def test_a_phone_gets_cells_and_buttons_a_finger_can_hit_and_no_keys_line(watched_phone, site):
    page = watched_phone.page
    open_without_engine(watched_phone, site, "linear")
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    assert min(widget.evaluate(SIZES)) >= 40  # 24 px before: WCAG's minimum, tight for a thumb
    cell = widget.locator('.lw-cell[data-input="X"]').first
    cell.scroll_into_view_if_needed()
    cell.tap()
    assert widget.locator(".lw-keys").is_hidden()  # arrows, F2 and Tab mean nothing without a keyboard


def test_a_desktop_keeps_its_compact_cells(watched, site):
    open_without_engine(watched, site, "linear")
    assert max(watched.page.locator('.lw-widget[data-kind="linear"]').first.evaluate(SIZES)) < 32
