"""A code block on a layer page as a reader meets it. mkdocs-material sets each one up (its copy button, a tab stop
when it scrolls sideways) only as it comes on screen (the theme's `content.lazy`): set up at load, each block's
setup made the browser lay the whole page out again, ~120 ms of LayerNorm's blocking time on a phone
(scripts/bench/HISTORY.md). Reached, the block has its button, and the button copies exactly the code shown."""
import pytest
from browser_pages import wait_for_instant_navigation

pytestmark = pytest.mark.browser

PAGE = "layers/layernorm/"
COPY = ".md-code__button[data-md-type=copy]"


def test_a_code_block_gets_its_copy_button_when_reached_and_it_copies_the_code(watched, site):
    page = watched.page
    watched.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site.url + PAGE)
    wait_for_instant_navigation(page)  # the theme has started: its components are mounted
    block = page.locator("pre:has(> code)").first
    assert page.evaluate("el => el.getBoundingClientRect().top > 3 * innerHeight", block.element_handle())
    assert block.locator(COPY).count() == 0  # far below the first screen: not set up yet

    block.scroll_into_view_if_needed()
    button = block.locator(COPY)
    button.wait_for()
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    shown = block.locator("code").text_content()
    assert copied.strip() == shown.strip() and "layernorm" in shown
