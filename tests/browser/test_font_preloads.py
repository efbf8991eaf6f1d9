"""Every KaTeX font a page's math is drawn in is asked for in its head, before the first paint, and no other: the
build reads which from katex.min.css (mathrender/fonts.py, tests/site/test_math_fonts.py); here Chromium, drawing
every block of each page of the nav, says which font files it fetched. A font fetched only once its characters
were laid out arrives after they were painted in a fallback and re-wraps their lines (an inline ∑ in KaTeX_Size1
moved a paragraph on The model); one asked for and never used costs a download and a console warning."""
from pathlib import Path

import pytest
from browser_pages import open_static
from layerwise_build.sitenav import load_nav, nav_pages

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["" if src == "index.md" else src.removesuffix(".md") + "/"
         for _, src in nav_pages(load_nav(ROOT / "mkdocs.yml"))]
FETCHED_AND_ASKED = """async () => {
    document.querySelectorAll('.md-content__inner > *').forEach(el => { el.style.contentVisibility = 'visible'; });
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    await document.fonts.ready;
    const name = url => url.split('/').pop();
    return {
        fetched: performance.getEntriesByType('resource').map(e => e.name)
            .filter(url => url.includes('/katex/fonts/')).map(name).sort(),
        asked: [...document.head.querySelectorAll('link[rel=preload][as=font]')].map(l => name(l.href)).sort(),
    };
}"""


def test_the_pages_are_found():
    assert len(PAGES) >= 10 and "layers/attention/" in PAGES, PAGES


@pytest.mark.parametrize("path", PAGES)
def test_a_page_asks_early_for_exactly_the_fonts_its_math_uses(watched, site, path):
    open_static(watched, site, path, {"width": 1280, "height": 800})
    fonts = watched.page.evaluate(FETCHED_AND_ASKED)
    assert fonts["fetched"] == fonts["asked"], f"{path}: drawn in {fonts['fetched']}, asked for {fonts['asked']}"


# The fonts the head preloads are all in use without the reader scrolling (docs/assets/math-fonts.js asks for them):
# otherwise a font only the blocks far below use (laid out when scrolled near) sits unused, and Chromium warns 3 s
# after the load event that its preload was wasted (the reader's walk: 6-8 warnings on every page).
PRELOADED_IN_USE = """() => [...document.querySelectorAll('link[rel=preload][as=font]')]
    .every(link => link.dataset.font && document.fonts.check(link.dataset.font))"""
WARNED_AFTER_LOAD = "() => performance.now() > performance.getEntriesByType('navigation')[0].loadEventEnd + 3500"


@pytest.mark.parametrize("path", ["layers/embedding/", "model/model/"])  # both warned for five fonts
def test_every_preloaded_font_is_in_use_without_scrolling_and_the_console_stays_quiet(watched, site, path):
    said = []
    watched.page.on("console", lambda message: said.append(message.text))
    open_static(watched, site, path, {"width": 1280, "height": 800})
    watched.page.wait_for_function(PRELOADED_IN_USE)
    watched.page.wait_for_function(WARNED_AFTER_LOAD)
    assert [text for text in said if "preloaded using link preload but not used" in text] == []
