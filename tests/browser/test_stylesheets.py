"""A stylesheet is set once, before the body: a sheet whose address is set again is a new sheet, and with the body
parsed that restyles and lays out the whole page and sets KaTeX's fonts up anew. mkdocs-material's instant
navigation writes every relative address in the page out in full as its bundle starts; the page's head does that
for its stylesheets first, while there is no body to restyle (overrides/main.html), and the theme then leaves them
alone. With Chromium's CPU slowed 4x that whole-page pass was ~70 ms of the theme's start-up task on Attention
(scripts/bench/HISTORY.md)."""
import pytest
from browser_pages import wait_for_instant_navigation

pytestmark = pytest.mark.browser

# Installed before the page's scripts: every change to a stylesheet link's address, and whether the body existed then
# (a MutationObserver's callback runs at the next microtask checkpoint, right after the script that made the change).
SHEETS_SET = """{
    window.__lwSheetsSet = [];
    new MutationObserver((changes) => {
        for (const change of changes) {
            if (change.target.matches('link[rel=stylesheet]')) {
                window.__lwSheetsSet.push({href: change.target.getAttribute('href'), withBody: !!document.body});
            }
        }
    }).observe(document, {subtree: true, attributes: true, attributeFilter: ['href']});
}"""


@pytest.mark.parametrize("path", ["layers/attention/", ""])
def test_no_stylesheet_is_set_again_once_the_body_is_there(watched, site, path):
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    watched.context.add_init_script(SHEETS_SET)
    watched.page.goto(site.url + path)
    wait_for_instant_navigation(watched.page)  # the theme's bundle has run its start-up
    sheets = watched.page.evaluate("[...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.getAttribute('href'))")
    changes = watched.page.evaluate("window.__lwSheetsSet")
    assert len(sheets) >= 3, sheets
    assert all(href.startswith(site.url) for href in sheets), f"not written out in full: {sheets}"
    late = [change["href"] for change in changes if change["withBody"]]
    assert late == [], f"set again with the body parsed (the whole page restyled): {late}"
    assert len(changes) == len(sheets), f"each sheet set once, in the head: {changes}"
