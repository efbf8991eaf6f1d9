"""Preload hints for the engine's files, put in the <head> of pages that show a widget, so the browser fetches
Pyodide, NumPy and the engine wheel while the page is still parsing, before the worker asks for them.

The worker fetches these itself, so a hint can only help through the HTTP cache: each hint must request its file
the way the worker will (``as`` and ``crossorigin`` matching), or Chromium keeps two entries and downloads twice.
``importScripts`` is a no-cors script request; Pyodide's ``fetch`` calls are CORS requests with same-origin
credentials (``crossorigin="anonymous"``).
"""
from html import escape

from . import pyodide_dist

MARKER = "data-lw-engine"  # lets a benchmark strip the hints for its A/B rows
SCRIPTS = ("pyodide.js", "pyodide.asm.js")  # importScripts in the worker


def engine_hints(pyodide_url, wheel_urls):
    """``<link rel="preload">`` tags for the runtime at ``pyodide_url`` (a folder URL ending in /) and the wheels."""
    tags = []
    for name in pyodide_dist.RUNTIME:
        how = 'as="script"' if name in SCRIPTS else 'as="fetch" crossorigin="anonymous"'
        tags.append(f'<link rel="preload" href="{escape(pyodide_url + name)}" {how} {MARKER}>')
    for url in wheel_urls:
        tags.append(f'<link rel="preload" href="{escape(url)}" as="fetch" crossorigin="anonymous" {MARKER}>')
    return "\n".join(tags) + "\n"


def add_to_head(html, hints):
    """The page with ``hints`` early in its <head>: after the charset declaration (which must come within the first
    1024 bytes), ahead of the stylesheets."""
    for anchor in ('<meta charset="utf-8">', "<head>"):
        at = html.find(anchor)
        if at >= 0:
            at += len(anchor)
            return html[:at] + "\n" + hints + html[at:]
    return html
