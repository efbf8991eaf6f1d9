"""What a reader is told while the page works for them: a slow answer says "Computing…" (a training run takes over
a second), "Copy link" says that it copied, and the copied link opens the page at its example."""
import pytest
from browser_pages import open_without_engine, wait_for_engine

pytestmark = pytest.mark.browser

# Where the cells and the outputs are inside the widget (as in test_layout).
LAYOUT = """el => { const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('.lw-cell, .lw-results, .lw-results h4')].map(e => {
        const r = e.getBoundingClientRect(); return [Math.round(r.left - box.left), Math.round(r.top - box.top)]; }); }"""
WORKING = """el => { const results = el.querySelector('.lw-results');
    return {working: results.classList.contains('lw-working'), busy: results.getAttribute('aria-busy'),
            label: getComputedStyle(results, '::before').content}; }"""


@pytest.mark.live
def test_a_slow_answer_says_computing_until_it_arrives_and_moves_nothing(live, watched):
    page = watched.page
    page.goto(live.url + live.page_with_kind("training"))
    assert wait_for_engine(page)["state"] == "ready"
    widget = page.locator('.lw-widget[data-kind="training"]').first
    widget.scroll_into_view_if_needed()
    before = widget.evaluate(LAYOUT)
    widget.locator('.lw-cell[data-input="steps"]').fill("120")  # twice the default run: over a second here
    page.wait_for_selector('.lw-widget[data-kind="training"] .lw-results.lw-working', timeout=5000)
    seen = widget.evaluate(WORKING)
    assert seen == {"working": True, "busy": "", "label": '"Computing…"'}, seen
    assert widget.evaluate(LAYOUT) == before, "the sign of work moved the cells or the outputs"
    page.wait_for_function("el => !el.querySelector('.lw-results').classList.contains('lw-working')",
                           arg=widget.element_handle(), timeout=30_000)
    assert widget.evaluate(WORKING)["busy"] is None
    assert "after steps 20, 40, 60, 80, 100, 120" in widget.locator(".lw-output .lw-label").first.text_content()
    assert widget.locator("h3").all_text_contents() == ["Measured along the run"]  # also when drawn in the browser


def test_copy_link_says_so_and_the_link_opens_at_the_example(watched, site):
    page = watched.page
    watched.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_without_engine(watched, site, "embedding")
    widget = page.locator('.lw-widget[data-kind="embedding"]').first
    page.evaluate("Layerwise.pause.ms = 600_000")  # no pause in typing before the click: Copy writes the link
    widget.locator('.lw-cell[data-input="ids"][data-col="1"]').fill("1")
    page.evaluate("Layerwise.pause.ms = 900")  # what is said after the click, at the usual pause
    page.evaluate("""() => { window.__said = [];
        new MutationObserver(() => window.__said.push(document.querySelector('.lw-announcer').textContent))
            .observe(document.querySelector('.lw-announcer'), {childList: true, characterData: true, subtree: true}); }""")
    widget.locator(".lw-copy").click()
    bubble = widget.locator(".lw-copied")
    bubble.wait_for(state="visible", timeout=5000)  # shown once the clipboard's write resolves
    assert bubble.text_content() == "Link copied"
    under = page.evaluate("""([b, button]) => b.getBoundingClientRect().top >= button.getBoundingClientRect().bottom""",
                          [bubble.element_handle(), widget.locator(".lw-copy").element_handle()])
    assert under  # laid over the page under the button, not over it
    page.wait_for_function("window.__said.some(text => text.startsWith('Link copied'))", timeout=3000)
    link = page.evaluate("navigator.clipboard.readText()")
    assert "#lw-" in link
    bubble.wait_for(state="hidden", timeout=5000)

    other = watched.context.new_page()
    other.goto(link)
    other.wait_for_function("document.querySelector('.lw-reset:enabled')")
    # at the example, below the header, not at the top: waited for, since the page scrolls once it is set up
    other.wait_for_function("""half => { const top = document.querySelector('.lw-widget[data-kind="embedding"]')
        .getBoundingClientRect().top; return 0 <= top && top <= half; }""", arg=other.viewport_size["height"] / 2,
        timeout=10_000)
    assert other.locator('.lw-widget[data-kind="embedding"] .lw-cell[data-input="ids"][data-col="1"]').input_value() == "1"
    other.close()
