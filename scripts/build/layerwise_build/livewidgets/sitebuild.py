"""Build a site for a test or benchmark: from a given mkdocs.yml, into a given folder, for a given origin, with a
given Pyodide folder.

``site_url`` must match the origin the site is served from, or mkdocs-material silently turns instant navigation
into full page loads.
"""
import os
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config


def build_site(config_file, site_dir, site_url, pyodide_dist, strict=True, command="build"):
    """Build ``config_file`` (strictly by default), self-hosting ``pyodide_dist`` (None: the official CDN), as
    ``mkdocs build`` does (``command="serve"``: as `mkdocs serve`'s builds do). Returns ``site_dir``."""
    saved = os.environ.get("PYODIDE_DIST")
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    if pyodide_dist:
        os.environ["PYODIDE_DIST"] = str(pyodide_dist)
    else:
        os.environ.pop("PYODIDE_DIST", None)
    try:
        config = load_config(str(config_file), site_dir=str(site_dir), site_url=site_url, strict=strict)
        config.plugins.on_startup(command=command, dirty=False)
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()
    finally:
        if saved is None:
            os.environ.pop("PYODIDE_DIST", None)
        else:
            os.environ["PYODIDE_DIST"] = saved
    return Path(site_dir)
