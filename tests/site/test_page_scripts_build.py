"""The build writes a page's scripts to start after its first frame (layerwise_build/pagescripts.py): each inert and
preloaded, in their order, followed by the script that starts them; it refuses a script there that would run before
the frame. That they do start, in order, is for the browser tests (every one of them needs the page's scripts)."""
import pytest
from mkdocs.exceptions import PluginError

from layerwise_build.pagescripts import STARTER, after_first_frame

HEAD = '<html><head><script>{ /* the head script */ }</script></head><body><p>text</p>'
CONFIG = '<script id="__config" type="application/json">{"base": ".."}</script>'


def test_each_script_after_the_theme_configuration_is_inert_and_preloaded_in_its_order():
    page = (HEAD + CONFIG + '\n  <script src="../assets/bundle.js"></script>\n'
            '  <script src="../assets/layerwise/widgets.js" type="module"></script></body></html>')
    assert after_first_frame(page, "index.md") == (
        HEAD + CONFIG + '\n  <link rel="preload" as="script" href="../assets/bundle.js" fetchpriority="low">'
        '<script type="layerwise/after-first-frame" src="../assets/bundle.js"></script>\n'
        '  <link rel="modulepreload" href="../assets/layerwise/widgets.js" fetchpriority="low">'
        '<script type="layerwise/after-first-frame" src="../assets/layerwise/widgets.js" data-module></script>'
        + STARTER + '</body></html>')


def test_scripts_before_the_theme_configuration_are_left_as_they_are():
    page = HEAD + '<script src="in-the-content.js"></script>' + CONFIG + "</body></html>"
    assert after_first_frame(page, "index.md") == page.replace("</body>", STARTER + "</body>")


def test_a_page_without_the_theme_configuration_is_left_as_it_is():
    page = '<html><body><script src="redirect.js"></script></body></html>'
    assert after_first_frame(page, "old.md") == page


def test_a_script_that_would_run_before_the_first_frame_stops_the_build():
    page = HEAD + CONFIG + '<script defer src="../assets/x.js"></script></body></html>'
    stray = r'<script defer src="\.\./assets/x\.js">'
    with pytest.raises(PluginError, match=r"layers/x\.md: a script at the end .* " + stray):
        after_first_frame(page, "layers/x.md")
