"""Where the browser gets Pyodide: the official CDN by default, or a self-hosted copy (``PYODIDE_DIST``).

The version is pinned once, in package.json (the npm ``pyodide`` dependency); the CDN URL is derived from it and a
self-hosted folder must carry the same version.
"""
import json
import os
import shutil
from pathlib import Path

SITE_FOLDER = "pyodide"  # inside the built site, never inside docs/
REQUIRED = ("package.json", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json", "python_stdlib.zip")


class PyodideDistError(Exception):
    pass


def pinned_version(project_root):
    package = json.loads((Path(project_root) / "package.json").read_text())
    return package["dependencies"]["pyodide"]


def cdn_url(version):
    return f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"


def self_hosted_dist(version, environ=os.environ):
    """The folder named by ``PYODIDE_DIST``, checked, or None when the variable is unset."""
    folder = environ.get("PYODIDE_DIST")
    if not folder:
        return None
    folder = Path(folder)
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    if missing:
        raise PyodideDistError(f"PYODIDE_DIST={folder} is not a Pyodide distribution: missing {', '.join(missing)}")
    found = json.loads((folder / "package.json").read_text()).get("version")
    if found != version:
        raise PyodideDistError(f"PYODIDE_DIST={folder} holds Pyodide {found}, but package.json pins {version}")
    return folder


def copy_dist(folder, site_dir):
    """Copy the distribution into ``site_dir/pyodide`` (hard links when possible: it is ~16 MB)."""
    target = Path(site_dir) / SITE_FOLDER
    if target.exists():
        shutil.rmtree(target)

    def link_or_copy(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(folder, target, copy_function=link_or_copy, ignore=shutil.ignore_patterns("node_modules"))
    return target
