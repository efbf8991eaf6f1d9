"""Matrices from the keyboard and a screen reader: one tab stop per matrix (roving tabindex) with arrows inside,
Escape, names that match the grid's headers, bad cells described by their message, a skip link to the first
widget, and polite announcements only once typing pauses. Most of it needs no engine, which is kept from loading."""
import pytest
from browser_pages import open_without_engine, wait_for_engine

pytestmark = pytest.mark.browser


def focused(page):
    return page.evaluate("[document.activeElement.dataset.input, +document.activeElement.dataset.row, "
                         "+document.activeElement.dataset.col, document.activeElement.value]")


def test_from_the_skip_link_the_first_cell_is_at_most_five_tabs_away_and_arrows_edit_a_whole_matrix(watched, site):
    page = watched.page
    path_of_page = open_without_engine(watched, site, "layernorm")
    page.evaluate("window.scrollTo(0, 0); document.activeElement.blur()")
    loads_of_page = watched.requests.count(site.url + path_of_page)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('md-skip')")
    page.keyboard.press("Enter")  # the theme's skip link: to the page's heading
    path = []  # what each Tab reached, for the failure message
    while len(path) < 5 and not page.evaluate("document.activeElement.classList.contains('lw-cell')"):
        page.keyboard.press("Tab")
        path.append(page.evaluate("document.activeElement.outerHTML.slice(0, 80)"))
        if page.evaluate("document.activeElement.classList.contains('lw-skip')"):
            assert page.evaluate("document.activeElement.getBoundingClientRect().width") > 20  # shown on focus
            page.keyboard.press("Enter")
            page.wait_for_function("document.activeElement.classList.contains('lw-cell')", timeout=3000)
    widget = page.locator(".lw-widget").first
    assert focused(page)[:3] == [widget.evaluate("el => el.querySelector('.lw-cell').dataset.input"), 0, 0], path
    assert page.evaluate("location.hash") in ("", "#layernorm")  # the link holds edited values only
    # the skip link moved the focus without the theme's instant navigation fetching the page again (its swap, a
    # moment later, dropped the focus from the cell)
    assert watched.requests.count(site.url + path_of_page) == loads_of_page

    # the whole first matrix, arrows only: right along a row, then down and left back to the row's start
    name = focused(page)[0]
    rows, cols = widget.evaluate(f"""el => {{ const cells = el.querySelectorAll('.lw-cell[data-input="{name}"]');
        const last = cells[cells.length - 1]; return [+last.dataset.row + 1, +last.dataset.col + 1]; }}""")
    typed = [[str(10 * r + c + 1) for c in range(cols)] for r in range(rows)]  # 1 2 3 .. / 11 12 13 ..
    for r in range(rows):
        for c in range(cols):
            page.keyboard.type(typed[r][c])  # the cell's text is selected on arrival: typing replaces it
            if c < cols - 1:
                page.keyboard.press("ArrowRight")
        if r < rows - 1:
            page.keyboard.press("ArrowDown")
            for _ in range(cols - 1):
                page.keyboard.press("ArrowLeft")  # moves at once although the text is selected
    values = page.evaluate(f"Layerwise.widgets()[0].values['{name}']")
    assert values == [[float(t) for t in row] for row in typed]


def test_a_matrix_is_one_tab_stop_and_a_widget_a_handful(watched, site):
    page = watched.page
    open_without_engine(watched, site, "layernorm")
    stops = page.evaluate("""() => {
        const el = document.querySelector('.lw-widget');
        const tabbable = [...el.querySelectorAll('input, button, a[href], [tabindex]')]
            .filter(e => e.tabIndex >= 0 && !e.disabled);
        return {stops: tabbable.length, grids: el.querySelectorAll('table[role=grid]').length,
                toolbars: el.querySelectorAll('[role=toolbar]').length,
                perGrid: [...el.querySelectorAll('table[role=grid]')].map(t =>
                    [...t.querySelectorAll('.lw-cell')].filter(c => c.tabIndex === 0).length)};
    }""")
    # LayerNorm: x, gamma, beta, dy, each a grid and a toolbar of resize buttons, then Reset and Copy link
    assert stops == {"stops": 10, "grids": 4, "toolbars": 4, "perGrid": [1, 1, 1, 1]}


def test_tab_leaves_the_matrix_and_arrows_move_inside_it(watched, site):
    page = watched.page
    open_without_engine(watched, site, "linear")
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    widget.locator('.lw-cell[data-input="X"][data-row="0"][data-col="1"]').click()  # a click: the caret's mode
    page.keyboard.press("Tab")  # X's resize buttons, one stop
    assert page.evaluate("document.activeElement.textContent") == "+ row"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.textContent") == "− row"
    page.keyboard.press("Tab")  # W's tab stop: its first cell
    assert focused(page)[:3] == ["W", 0, 0]
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # back into X, on the cell that was active
    assert focused(page)[:3] == ["X", 0, 1]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")  # the text is selected on arrival: Left moves at once
    assert focused(page)[:3] == ["X", 1, 0]


def test_escape_restores_the_value_from_before_the_edit(watched, site):
    page = watched.page
    open_without_engine(watched, site, "linear")
    widget = page.locator('.lw-widget[data-kind="linear"]').first
    cell = widget.locator('.lw-cell[data-input="W"][data-row="0"][data-col="2"]')  # W[0][2] = 2
    cell.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("-7.5")
    assert page.evaluate("Layerwise.widgets()[0].values.W[0][2]") == -7.5
    page.keyboard.type("x")  # a bad value on top
    page.keyboard.press("Escape")
    assert cell.input_value() == "2" and "lw-bad" not in cell.get_attribute("class")
    assert page.evaluate("Layerwise.widgets()[0].values.W[0][2]") == 2
    assert widget.locator(".lw-message").text_content() != "W[k0, j2]: '-7.5x' is not a number"


NAMES = """el => [...el.querySelectorAll('table.lw-grid')].flatMap(table => {
    const heads = [...table.querySelectorAll('thead th:not(.lw-corner)')].map(th => th.textContent);
    const name = table.closest('figure').dataset.name;
    return [...table.querySelectorAll('.lw-cell')].map(cell => {
        const row = cell.closest('tr').querySelector('th:not(.lw-corner)');
        const col = heads[+cell.dataset.col];
        return [cell.getAttribute('aria-label'), row ? `${name} ${row.textContent}, ${col}` : `${name} ${col}`];
    });
})"""
CORNERS = """el => ({emptyHeaders: [...el.querySelectorAll('th')].filter(th => !th.textContent.trim()).length,
                    corners: [...el.querySelectorAll('th.lw-corner')].every(th =>
                        th.textContent === th.closest('figure').dataset.name)})"""


@pytest.mark.parametrize("kind", ["linear", "layernorm"])
def test_cell_names_use_the_grids_own_zero_based_headers_and_no_header_is_empty(watched, site, kind):
    page = watched.page
    open_without_engine(watched, site, kind)
    widget = page.locator(f'.lw-widget[data-kind="{kind}"]').first
    pairs = widget.evaluate(NAMES)
    assert pairs and all(label == expected for label, expected in pairs), pairs
    assert pairs[0][0].split(" ", 1)[1].startswith(("t0", "i0", "a0"))  # 0-based, like the headers
    seen = widget.evaluate(CORNERS)
    assert seen == {"emptyHeaders": 0, "corners": True}


ANNOUNCED = """() => { window.__said = [];
    new MutationObserver(() => window.__said.push([performance.now(), document.querySelector('.lw-announcer').textContent]))
        .observe(document.querySelector('.lw-announcer'), {childList: true, characterData: true, subtree: true}); }"""


def test_a_bad_value_is_announced_once_typing_pauses_not_on_every_key(watched, site):
    page = watched.page
    open_without_engine(watched, site, "linear")
    cell = page.locator('.lw-widget[data-kind="linear"] .lw-cell[data-input="X"][data-row="0"][data-col="1"]')
    cell.focus()  # starts the engine, whose worker is refused: that failure is said before the typing begins
    assert wait_for_engine(page)["state"] == "failed"
    page.wait_for_timeout(1200)
    page.evaluate(ANNOUNCED)
    page.keyboard.press("Control+a")
    for key in "1e3x":  # 1 (fine), 1e (bad), 1e3 (fine), 1e3x (bad)
        page.keyboard.type(key)
        page.wait_for_timeout(150)
    assert page.evaluate("window.__said") == [], "announced while the reader was typing"
    page.wait_for_function("window.__said.length > 0", timeout=5000)
    page.wait_for_timeout(300)
    said = [text for _, text in page.evaluate("window.__said") if text]
    assert said == ["X[t0, k1]: '1e3x' is not a number"]


@pytest.mark.live
def test_a_live_edit_announces_what_changed_and_the_engine_going_live(live, watched):
    page = watched.page
    page.goto(live.url + "layers/linear/")
    page.evaluate(ANNOUNCED)
    page.locator(".lw-widget").first.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    page.wait_for_function("window.__said.some(([, t]) => t === 'The live engine is ready: edits are recomputed.')")
    cell = page.locator('.lw-widget .lw-cell[data-input="X"][data-row="1"][data-col="0"]')
    cell.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("1")  # X[1][0]: 0 -> 1
    # As worked out in test_live: XW and Y change in row 1, columns 0 and 2; dW in row 0, columns 1 and 2.
    page.wait_for_function("window.__said.some(([, t]) => t.includes('updated'))", timeout=10_000)
    said = [text for _, text in page.evaluate("window.__said") if "updated" in text]
    assert said == ["XW, Y and dW updated, 6 cells"]
