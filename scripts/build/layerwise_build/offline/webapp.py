"""The site's web app manifest and the tags that link it: what a browser needs to offer "Install" (a name, icons it
can fetch, a start URL inside the scope, a display mode) and the colours of the theme's palettes.

The colours are read from the theme's own stylesheet (mkdocs-material's palette CSS: ``--md-primary-fg-color`` of
each palette's ``primary``), so the installed app's title bar matches the header. A palette's page background is
the scheme's: white, or slate's dark grey. The manifest takes the first palette's; the page's ``theme-color`` tags
give each palette's under its ``media`` query.
"""
import re
from pathlib import Path
from urllib.parse import urlsplit

from . import icons

MANIFEST = "manifest.webmanifest"
ICON = "assets/layerwise/icon-{size}.png"
DEFAULT_PRIMARY = "indigo"  # mkdocs-material's, when a palette names none
SCHEME_BACKGROUNDS = {"default": "#ffffff", "slate": "#1e2129"}  # slate: hsl(225, 15%, 14%), its default hue
MEDIA_TYPE = "application/manifest+json"


class ThemeColourError(Exception):
    """A palette's colour is not one the theme's stylesheet defines (a custom one: the message says what to do)."""


def theme_colours(theme_dirs, palettes):
    """[(media or None, primary colour, background colour)] for each of the theme's palettes, in order."""
    sheet = next((p for d in theme_dirs for p in sorted(Path(d).glob("assets/stylesheets/palette.*.min.css"))), None)
    css = sheet.read_text() if sheet else ""
    palettes = palettes if isinstance(palettes, list) else [palettes or {}]
    colours = []
    for palette in palettes:
        primary = str(palette.get("primary", DEFAULT_PRIMARY)).replace(" ", "-").lower()
        found = re.search(rf"\[data-md-color-primary={re.escape(primary)}\]\{{[^}}]*--md-primary-fg-color:(#[0-9a-f]{{6}})",
                          css)
        if not found:
            raise ThemeColourError(f"the theme's stylesheet has no colour for the palette's primary {primary!r}: "
                                   f"the offline part needs a named colour for the web app's theme")
        scheme = palette.get("scheme", "default")
        colours.append((palette.get("media"), found[1], SCHEME_BACKGROUNDS.get(scheme, SCHEME_BACKGROUNDS["default"])))
    return colours


def manifest(name, description, site_url, colours):
    """The manifest as a dict: start URL and scope are ``site_url``'s path (the site's root wherever it is served
    from, as the pages' own links are); icons at the sizes of :data:`icons.SIZES`."""
    root = urlsplit(site_url or "/").path or "/"
    _, primary, background = colours[0]
    return {
        "name": name,
        "short_name": name,
        "description": description or name,
        "id": root,
        "start_url": root,
        "scope": root,
        "display": "standalone",
        "theme_color": primary,
        "background_color": background,
        "icons": [{"src": root + ICON.format(size=size), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": "any"} for size in icons.SIZES],
    }


def icon_files(colours):
    """{site path: PNG bytes} of the mark at each size, in the first palette's colours."""
    _, primary, background = colours[0]
    return {ICON.format(size=size): icons.png(icons.mark(size, primary, background)) for size in icons.SIZES}


def head_tags(manifest_url, colours, mode):
    """The tags for a page's head: the manifest's link, each palette's theme colour, and the offline mode that
    offline.js reads (``keep``: register the site's worker; ``remove``: `mkdocs serve`, take any worker away)."""
    tags = [f'<link rel="manifest" href="{manifest_url}">']
    for media, primary, _ in colours:
        where = f' media="{media}"' if media else ""
        tags.append(f'<meta name="theme-color"{where} content="{primary}">')
    tags.append(f'<meta name="layerwise-offline" content="{mode}">')
    return "".join(tags)
