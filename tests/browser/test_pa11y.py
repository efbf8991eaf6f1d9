"""pa11y (HTML_CodeSniffer, WCAG 2 AA), the second auditor the site is held to, on every page of the nav: it
flags what axe passes (Build your GPT's table of functions, a header row inside each part, once had no ``headers``
tying its cells to their headers)."""
import sys

import pytest
from browser_pages import ROOT
from layerwise_build.sitenav import load_nav, nav_pages

sys.path.insert(0, str(ROOT / "scripts" / "bench"))
from browserbench.pa11y import pa11y, pa11y_config  # noqa: E402

pytestmark = pytest.mark.browser

PAGES = ["" if src == "index.md" else src.removesuffix(".md") + "/"
         for _, src in nav_pages(load_nav(ROOT / "mkdocs.yml"))]


def test_pa11y_finds_no_error_on_any_page_of_the_nav(site, tmp_path):
    config = pa11y_config(tmp_path)
    errors = {page or "home": [f"{e['code']} at {e['selector']}: {e['message']}" for e in pa11y(site.url + page, config)]
              for page in PAGES}
    assert {page: found for page, found in errors.items() if found} == {}
