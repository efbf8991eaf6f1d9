"""The scripts at the end of a page (the theme's bundle, engine-config.js, the widgets' modules, practice, the small
extras) start once the page's first paint is shown.

None of them draws anything the reader needs for the first screen: the build wrote it whole. Deferred, they ran as
soon as the page was parsed, which can be before its first frame is shown. Headless Chromium sometimes holds that
frame a second or two, its main thread idle, and Lighthouse then simulates the first paint and the largest one after
every task that came before it: the theme's start-up and the widgets' set-up (scripts/bench/HISTORY.md, "Scripts
after the first paint").

So each tag is written inert (``type="layerwise/after-first-frame"``: the browser neither fetches nor runs a script
of a type it does not know) beside a low-priority preload of the same file, and pagescripts.js, inlined after them,
puts real ones in their place, in document order, once the first paint is reported. Any site built with the plugin
gets both.
"""
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

INERT_TYPE = "layerwise/after-first-frame"
THEME_CONFIG = '<script id="__config" type="application/json">'
# how mkdocs writes a script of extra_javascript (and the theme its bundle): a classic script or a module
SCRIPT_TAG = re.compile(r'<script src="(?P<src>[^"]+)"(?P<module> type="module")?></script>')
ANY_SCRIPT = re.compile(r"<script\b[^>]*>")
STARTER = "<script>" + (Path(__file__).parent / "pagescripts.js").read_text() + "</script>"


def after_first_frame(page_html: str, page_name: str) -> str:
    """``page_html`` with every script tag after the theme's configuration written to start after the first frame,
    and the script that starts them; a script tag there of another shape (which would run before it) stops the
    build."""
    start = page_html.find(THEME_CONFIG)
    if start < 0:
        return page_html  # not a page of the theme's (a redirect, a stub)
    start = page_html.index("</script>", start) + len("</script>")
    end = page_html.rindex("</body>")
    scripts = SCRIPT_TAG.sub(_inert_and_preloaded, page_html[start:end])
    stray = [tag for tag in ANY_SCRIPT.findall(scripts) if f'type="{INERT_TYPE}"' not in tag]
    if stray:
        raise PluginError(f"{page_name}: a script at the end of the page is not one mkdocs writes, so it would run "
                          f"before the first frame: {stray[0]}")
    return page_html[:start] + scripts + STARTER + page_html[end:]


def _inert_and_preloaded(match):
    src = match["src"]
    if match["module"]:
        return (f'<link rel="modulepreload" href="{src}" fetchpriority="low">'
                f'<script type="{INERT_TYPE}" src="{src}" data-module></script>')
    return (f'<link rel="preload" as="script" href="{src}" fetchpriority="low">'
            f'<script type="{INERT_TYPE}" src="{src}"></script>')
