"""The header's light/dark toggle (overrides/partials/palette.html chooses the palette as the header is parsed,
docs/assets/palette.js switches it): the palette the system asks for on a first visit, the reader's choice kept
across pages and reloads, the toggle shown always the one that leaves the palette in use, by mouse and keyboard,
also after instant navigation."""
import pytest
from browser_pages import instant_go

pytestmark = pytest.mark.browser

PAGE = "layers/layernorm/"
STATE = """() => ({
    scheme: document.body.dataset.mdColorScheme,
    root: getComputedStyle(document.documentElement).colorScheme,
    toggles: [...document.querySelectorAll('[data-lw-palette] label')].filter(l => !l.hidden).map(l => l.title),
})"""
LIGHT = {"scheme": "default", "root": "normal", "toggles": ["Switch to dark mode"]}
DARK = {"scheme": "slate", "root": "dark", "toggles": ["Switch to light mode"]}


def block_scripts(watched):
    """Keep every script file from loading: what is left is what the page's inline scripts did while it parsed."""
    watched.context.route("**/*.js", lambda route: route.abort())


def open_loaded(watched, site):
    watched.page.goto(site.url + PAGE)
    watched.page.wait_for_load_state("load")
    return watched.page


def toggle(page):
    page.locator("[data-lw-palette] label:not([hidden])").click()


def press_enter(page):
    """Enter on a palette's radio button (each toggle is a label for one)."""
    page.focus("[data-lw-palette] input")
    page.keyboard.press("Enter")


@pytest.mark.parametrize("system, expected", [("light", LIGHT), ("dark", DARK)])
def test_a_first_visit_has_the_palette_the_system_asks_for_before_any_script_file(watched, site, system, expected):
    block_scripts(watched)
    watched.page.emulate_media(color_scheme=system)
    watched.page.goto(site.url + PAGE)
    assert watched.page.evaluate(STATE) == expected


def test_the_toggle_switches_both_ways_and_the_choice_outlives_a_reload_and_the_system(watched, site):
    page = open_loaded(watched, site)
    assert page.evaluate(STATE) == LIGHT
    toggle(page)
    assert page.evaluate(STATE) == DARK
    # the browser's bar takes the header's colour, as hex
    header = page.evaluate("getComputedStyle(document.querySelector('.md-header')).backgroundColor")
    red, green, blue = (int(part) for part in header[header.index("(") + 1:header.index(")")].split(",")[:3])
    assert page.evaluate("document.querySelector('meta[name=theme-color]').content") == f"#{red:02x}{green:02x}{blue:02x}"
    toggle(page)
    assert page.evaluate(STATE) == LIGHT
    toggle(page)
    # the reader chose dark: a light system no longer decides, before any script file runs
    block_scripts(watched)
    page.reload()
    assert page.evaluate(STATE) == DARK


def test_enter_on_the_focused_palette_button_switches_it(watched, site):
    page = open_loaded(watched, site)
    press_enter(page)
    assert page.evaluate(STATE) == DARK
    press_enter(page)
    assert page.evaluate(STATE) == LIGHT


def test_after_instant_navigation_a_click_and_a_key_each_switch_once(watched, site):
    page = open_loaded(watched, site)
    page.evaluate("window.__firstDocument = true")
    instant_go(page, site, "layers/attention/")
    assert page.evaluate("window.__firstDocument"), "the page was loaded anew, not swapped in"
    toggle(page)
    assert page.evaluate(STATE) == DARK
    # a script run again by the navigation would answer Enter twice, ending where it began
    press_enter(page)
    assert page.evaluate(STATE) == LIGHT
