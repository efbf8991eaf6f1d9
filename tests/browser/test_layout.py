"""Where things appear: a bad cell's message right under the cell with nothing moving, and matrices on a 375 px
phone (four input columns fit; a wider matrix says that it scrolls). Layout needs no engine, so it is kept from
loading."""
import pytest
from browser_pages import open_without_engine, two_frames, wait_for_engine

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# Where the cells and the outputs are inside the widget, to 0.1 px, and where the widget is on screen, to 1 px (the
# page may scroll by a fraction of a pixel while the cell is clicked). Not positions in the document: blocks far off
# screen keep an estimated height until first shown (layerwise.css), and the browser keeps what is on screen still
# (scroll anchoring) when one above gets its real height.
# The widget's place is measured from the block before it, not on the screen: Playwright may scroll to click (a retry
# puts the cell at the screen's edge), and scroll anchoring moves the page when a block far above gets its real
# height; neither moves the widget against its neighbour, which a shift of the layout would.
LAYOUT = """el => {
    const box = el.getBoundingClientRect();
    const at = e => { const r = e.getBoundingClientRect();
                      return [Math.round((r.left - box.left) * 10) / 10, Math.round((r.top - box.top) * 10) / 10]; };
    return {cells: [...el.querySelectorAll('.lw-cell')].map(at), results: at(el.querySelector('.lw-results')),
            fromPrevious: Math.round(box.top - el.previousElementSibling.getBoundingClientRect().bottom)};
}"""
# A bad cell's message laid over the page: where it is against its own matrix's caption, what of the widget it covers
# (buttons, cells, other captions), and whether presses go through it.
BUBBLE = """([el, cell]) => {
    const bubble = el.querySelector('.lw-cell-error'), b = bubble.getBoundingClientRect();
    const caption = cell.closest('figure').querySelector('figcaption'), c = caption.getBoundingClientRect();
    const hits = e => { const r = e.getBoundingClientRect();
                        return r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top; };
    const note = document.getElementById(cell.getAttribute('aria-describedby') || '');
    return {visible: !bubble.hidden && b.height > 0, text: bubble.textContent,
            onCaption: Math.abs(b.top - c.top) < 1 && Math.abs(b.left - c.left) < 1 && b.bottom >= c.bottom - 1,
            inside: b.left >= 0 && b.right <= innerWidth,
            covers: [...el.querySelectorAll('button, .lw-cell, figcaption, .lw-keys, .lw-description')]
                      .filter(e => e !== caption && hits(e)).map(e => e.textContent || e.ariaLabel || e.value),
            clickThrough: getComputedStyle(bubble).pointerEvents === 'none',
            described: note ? note.textContent : null, summary: el.querySelector('.lw-message').textContent};
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_bad_cells_message_sits_over_its_own_caption_covers_nothing_else_and_nothing_moves(watched, site, viewport):
    page = watched.page
    page.set_viewport_size(viewport)
    open_without_engine(watched, site, "linear")
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    cell = widget.locator('.lw-cell[data-input="W"][data-row="1"][data-col="2"]')
    cell.scroll_into_view_if_needed()
    # The engine starts with the page and fails here (the worker is blocked): its notice comes before the edit.
    assert wait_for_engine(page)["state"] == "failed"
    cell.click()
    page.keyboard.press("Control+a")
    # Measured after the click, because clicking may scroll: when Playwright's first try misses, it scrolls the cell
    # to the screen's edge and tries again (CI once ended with the cell's bottom on the screen's bottom edge). What is
    # tested is that the message moves nothing.
    before = widget.evaluate(LAYOUT)
    page.keyboard.type("1.2.3")
    seen = page.evaluate(BUBBLE, [widget.element_handle(), cell.element_handle()])
    message = "W[k1, j2]: '1.2.3' is not a number"
    assert seen["visible"] and seen["text"] == message
    assert seen["onCaption"] and seen["inside"], seen
    # Under the matrix it once hid W's "− column" button, then the next input's caption (the reader's walk, rows 9, 42)
    assert seen["covers"] == [] and seen["clickThrough"], seen
    assert seen["described"] == message  # aria-describedby ties the cell to its message
    assert seen["summary"] == message  # the summary line stays (read out by the page's live region, see test_keyboard)
    assert widget.evaluate(LAYOUT) == before, "the cells or the outputs moved"
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")  # 1.2: a number again
    seen = page.evaluate(BUBBLE, [widget.element_handle(), cell.element_handle()])
    assert not seen["visible"] and seen["described"] is None


FOUR_COLUMNS = ["layernorm", "activations", "rmsnorm", "cross_entropy"]  # kinds whose default input has 4 columns
WIDTHS = """el => [...el.querySelectorAll('.lw-input')].map(f => ({
    name: f.dataset.name, columns: f.querySelectorAll('tbody tr:first-child .lw-cell').length,
    overflow: f.scrollWidth - f.clientWidth, scrolls: f.hasAttribute('data-scrolls'),
    cue: getComputedStyle(f.querySelector('figcaption'), '::after').content}))"""


@pytest.mark.parametrize("kind", FOUR_COLUMNS)
def test_four_input_columns_fit_a_phone_and_a_wider_matrix_says_it_scrolls(watched, site, kind):
    page = watched.page
    page.set_viewport_size(PHONE)
    open_without_engine(watched, site, kind)
    widget = page.locator(f'.lw-widget[data-kind="{kind}"]').first
    two_frames(page)  # the scroll marks are set before the next paint
    inputs = widget.evaluate(WIDTHS)
    four = [f for f in inputs if f["columns"] == 4]
    assert four, inputs
    for figure in inputs:
        if figure["columns"] <= 4:
            assert figure["overflow"] <= 0 and not figure["scrolls"], figure
            assert figure["cue"] == "none", figure
    name = four[0]["name"]
    add = widget.locator(f'.lw-input[data-name="{name}"] button', has_text="+ column")
    while add.count() and add.is_enabled():
        add.click()
    two_frames(page)
    grown = next(f for f in widget.evaluate(WIDTHS) if f["name"] == name)
    assert grown["columns"] == 8 and grown["overflow"] > 0  # eight columns cannot fit 375 px
    assert grown["scrolls"] and "scrolls sideways" in grown["cue"], grown


KEYS = """el => { const keys = el.querySelector('.lw-keys'), r = keys.getBoundingClientRect();
                    const inputs = el.querySelector('.lw-inputs').getBoundingClientRect();
                    return {text: keys.textContent, shown: r.height > 0 && getComputedStyle(keys).display !== 'none',
                            underInputs: r.top >= inputs.bottom - 0.5}; }"""


def test_the_keys_are_shown_under_the_inputs_before_any_press_and_stay_while_typing(watched, site):
    page = watched.page
    page.set_viewport_size(DESKTOP)
    open_without_engine(watched, site, "linear")
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    widget.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "failed"  # its notice comes before the measurement
    keys = widget.evaluate(KEYS)
    assert keys["shown"] and keys["underInputs"], keys  # a mouse user sees them without pressing anything
    assert all(key in keys["text"] for key in ("arrow keys", "F2", "Esc", "Tab")), keys
    before = widget.evaluate(LAYOUT)
    cell = widget.locator('.lw-cell[data-input="W"][data-row="1"][data-col="2"]')
    cell.click()
    assert widget.evaluate(LAYOUT) == before, "entering a matrix moved the cells or the outputs"
    page.keyboard.type("7", delay=120)
    assert widget.evaluate(KEYS)["shown"]  # the one-time tip this replaced went at the first key
    # screen readers have the keys all along, as every grid's description
    help_id = widget.locator("table[role=grid]").first.get_attribute("aria-describedby")
    assert "Tab leaves the matrix" in page.locator(f"#{help_id}").text_content()
