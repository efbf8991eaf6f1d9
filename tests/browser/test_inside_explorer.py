"""The page "Inside a trained model" in Chromium: complete without JavaScript, and with the live engine (needs
PYODIDE_DIST) every panel follows typing, the maps are causal rows of weights, a bad character is named, Generate
streams, the keyboard reaches every heat-map cell, axe passes in both palettes and nothing moves after first paint."""

import numpy as np
import pytest
from browser_pages import ROOT, wait_for_engine
from test_accessibility import assert_accessible

from engine.generate import generate_text
from engine.inside import analysis

from layerwise_build.livewidgets import trained_model
from layerwise_build.parts.inside import DEFAULT_PROMPT

pytestmark = pytest.mark.browser
PATH = "model/inside/"
PANELS = "['tokens', 'attention', 'rms', 'next'].map(p => document.querySelector(`.lw-inside-${p}`).innerHTML)"
MOVED = "window.__shifts.slice(window.__settled)"
SHIFTS = """window.__shifts = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(
    e.value); }).observe({type: 'layout-shift', buffered: true});"""


def model():
    return analysis.load(str(trained_model.ensure(ROOT, "engine") / trained_model.CHECKPOINT))


def answers(page):
    return int(page.evaluate("document.querySelector('.lw-inside-controls').dataset.answers || 0"))


def open_live(watched, site):
    page = watched.page
    page.add_init_script(SHIFTS)
    page.goto(site.url + PATH)
    assert wait_for_engine(page)["state"] == "ready"
    page.wait_for_function("document.querySelector('.lw-inside-controls').dataset.answers >= 1", timeout=60_000)
    # The site's own load-time shifts (content-visibility blocks settling) are the layout-shift test's; from here
    # on, every change is an answer of this page's engine put in place of a panel.
    page.evaluate("window.__settled = window.__shifts.length")
    return page


def type_prompt(page, text):
    """Replace the prompt key by key, as a reader does; wait until the answer to the whole text is shown."""
    before = answers(page)
    page.fill("#lw-inside-prompt", "")
    page.locator("#lw-inside-prompt").press_sequentially(text, delay=30)
    page.wait_for_function("n => document.querySelector('.lw-inside-controls').dataset.answers > n", arg=before)
    page.wait_for_function("t => window.Layerwise.explorer.prompt === t.slice(-16)", arg=text, timeout=30_000)


def test_the_page_is_complete_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url + PATH)
    params, config, vocab = model()
    expected = analysis.analyse(params, config, vocab, DEFAULT_PROMPT)
    assert page.locator("table.lw-heat").count() == config.num_layers * config.num_heads
    assert page.locator(".lw-inside-next tbody tr").count() == 10
    assert page.locator(".lw-inside-rms svg").count() == 1
    # held out (two readings), its own training text, then the two baselines the page compares against
    assert page.locator(".lw-inside-metrics tbody th").all_text_contents() == [
        "this model", "this model, every target with a full window before it", "this model, on its own training text",
        "character frequencies (unigram)", "uniform guess, 1 / V each"]
    shown = page.locator(".lw-inside-tokens tr").nth(2).locator("td").all_text_contents()
    assert shown[:16] == [str(i) for _, i in expected["tokens"]]
    assert "uses the last 16" in page.text_content("#lw-inside-message")
    # the residual stream's chart names each position by its character
    shown_characters = [analysis.panels.VISIBLE.get(ch, ch) for ch, _ in expected["tokens"]]
    labels = page.locator(".lw-inside-rms svg text").all_text_contents()
    assert "character of the prompt" in labels
    assert any(labels[i:i + len(shown_characters)] == shown_characters for i in range(len(labels)))
    context.close()


def test_a_prompt_typed_while_the_engine_loads_is_kept_and_said(watched, site):
    page = watched.page
    watched.context.route("**/layerwise/worker.js", lambda route: None)  # held: the engine stays loading
    page.goto(site.url + PATH)
    message = page.locator("#lw-inside-message")
    page.wait_for_function("document.querySelector('#lw-inside-message').textContent.includes('Loading the live engine')")
    page.fill("#lw-inside-prompt", "")
    page.locator("#lw-inside-prompt").press_sequentially("Love is", delay=120)  # at a person's pace
    said = message.text_content()
    assert said.startswith("Your edit is kept") and "Loading the live engine" in said, said
    assert "of your" not in said  # no note about the default prompt the reader replaced
    assert page.locator("#lw-inside-generate").is_disabled()


@pytest.mark.live
def test_typing_updates_every_panel_with_the_engines_numbers(live, watched):
    page = open_live(watched, live)
    before = page.evaluate(PANELS)
    type_prompt(page, "From fairest")
    after = page.evaluate(PANELS)
    assert all(a != b for a, b in zip(after, before)), "a panel did not follow the prompt"
    shown = page.evaluate("window.Layerwise.explorer")
    params, config, vocab = model()
    expected = analysis.analyse(params, config, vocab, "From fairest")
    np.testing.assert_allclose(np.array(shown["attention"]), np.array(expected["attention"]), rtol=0, atol=1e-9)
    assert [ch for ch, _ in shown["next"]] == [ch for ch, _ in expected["next"]]
    np.testing.assert_allclose([p for _, p in shown["next"]], [p for _, p in expected["next"]], atol=1e-9)
    maps = np.array(shown["attention"])  # (L, H, T, T)
    np.testing.assert_allclose(maps.sum(axis=-1), 1.0, atol=1e-12)
    assert (np.triu(maps, 1) == 0).all(), "a weight above the diagonal: the future was attended"
    page.fill("#lw-inside-temperature", "0.5")
    page.wait_for_function("window.Layerwise.explorer.temperature === 0.5")
    hot = page.evaluate("window.Layerwise.explorer.next")
    assert [ch for ch, _ in hot] == [ch for ch, _ in shown["next"]] and hot[0][1] > shown["next"][0][1]
    count = answers(page)
    page.fill("#lw-inside-temperature", "")  # emptied, or text the number field drops: not "got 0.0"
    assert page.text_content("#lw-inside-message") == "Temperature is empty or not a number: type one from 0.05 to 10."
    page.fill("#lw-inside-temperature", "0")
    assert page.text_content("#lw-inside-message") == "Temperature must be from 0.05 to 10, got 0."
    assert page.locator("#lw-inside-generate").is_disabled() and answers(page) == count  # Python was not asked
    assert page.evaluate(MOVED) == [], "an answer moved the page"


@pytest.mark.live
def test_an_unknown_character_is_named_and_nothing_else_changes(live, watched):
    page = open_live(watched, live)
    type_prompt(page, "Thou art")
    panels, hook = page.evaluate(PANELS), page.evaluate("window.Layerwise.explorer")
    count = answers(page)
    page.locator("#lw-inside-prompt").press_sequentially("&#", delay=30)  # "Thou art&#": nothing valid to show
    page.wait_for_function("document.querySelector('#lw-inside-message').textContent.includes("
                           "\"'&' at position 8, '#' at position 9\")")
    assert page.evaluate(PANELS) == panels and page.evaluate("window.Layerwise.explorer") == hook
    assert answers(page) == count
    page.fill("#lw-inside-prompt", "")
    page.wait_for_function("document.querySelector('#lw-inside-message').textContent.startsWith('The prompt is empty')")
    assert page.evaluate(PANELS) == panels


@pytest.mark.live
def test_generate_streams_characters_with_each_steps_distribution(live, watched):
    page = open_live(watched, live)
    type_prompt(page, "Thou art")
    page.fill("#lw-inside-seed", "5")
    page.evaluate("""() => { window.__lengths = []; const out = document.querySelector('#lw-inside-generated');
        new MutationObserver(() => window.__lengths.push(out.textContent.length)).observe(out,
            {childList: true, characterData: true, subtree: true}); }""")
    page.click("#lw-inside-generate")
    page.wait_for_function("(window.Layerwise.explorer.generated || '').length === 40", timeout=90_000)
    lengths = page.evaluate("window.__lengths")
    assert sorted(set(lengths)) == list(range(len("Thou art") + 1, len("Thou art") + 41)), \
        "the characters did not arrive one at a time"
    params, config, vocab = model()
    expected = generate_text(params, config, vocab, "Thou art", 40, seed=5)[len("Thou art"):]
    assert page.evaluate("window.Layerwise.explorer.generated") == expected
    # the prompt (greyed) and then the continuation, as plain text: no ␣ or ↵ in place of blanks
    assert page.text_content("#lw-inside-generated") == "Thou art" + expected
    assert page.text_content("#lw-inside-generated .lw-inside-prompt-text") == "Thou art"
    assert page.text_content(".lw-inside-next caption").startswith("Step 40: the distribution")
    assert page.evaluate(MOVED) == [], "an answer moved the page"


@pytest.mark.live
def test_the_keyboard_reaches_every_heat_map_cell(live, watched):
    page = open_live(watched, live)
    type_prompt(page, "Thou")
    n = 4
    page.focus("table.lw-heat td[tabindex='0']")  # the first map's tab stop
    label = "document.activeElement.closest('table.lw-heat')?.getAttribute('aria-label')"
    reached_maps = [page.evaluate(label)]
    for _ in range(7):
        page.keyboard.press("Tab")
        reached_maps.append(page.evaluate(label))
    assert len(set(reached_maps)) == 8 and None not in reached_maps, reached_maps  # one tab stop per map
    seen = set()
    where = "(() => { const c = document.activeElement; return [c.parentElement.sectionRowIndex, " \
            "[...c.parentElement.querySelectorAll('td[style]')].indexOf(c), " \
            "document.querySelector('.lw-heat-tip').textContent]; })()"
    for q in range(n):
        page.keyboard.press("Home")
        for k in range(n):
            row, col, tip = page.evaluate(where)
            seen.add((row, col))
            assert tip.startswith(f"query {row} ") and f", key {col} " in tip, tip
            page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
    assert seen == {(q, k) for q in range(n) for k in range(n)}


@pytest.mark.live
@pytest.mark.parametrize("palette", ["light", "dark"])
def test_axe_passes_with_the_live_page(live, watched, palette):
    watched.page.emulate_media(color_scheme=palette)
    page = open_live(watched, live)
    page.hover(".lw-heat td[style]")
    assert_accessible(page, f"inside, {palette}")
