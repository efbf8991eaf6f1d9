"""Where the browser gets Pyodide: the official CDN by default, or a self-hosted copy (``PYODIDE_DIST``).

The version is pinned once, in package.json (the npm ``pyodide`` dependency); the CDN URL is derived from it and a
self-hosted folder must carry the same version.
"""
import json
import os
import shutil
from pathlib import Path

SITE_FOLDER = "pyodide"  # inside the built site, never inside docs/
# What loadPyodide fetches (seen in the browser's network log), and the folder's own lock file: the worker reads the
# site's lock file instead (the engine's, see engine_package.py), but the copy stays a whole Pyodide distribution
# that a page without the engine can load as it is (scripts/bench/bench_widgets.py's bare page does). package.json is
# read here, for the version only.
RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json", "python_stdlib.zip")
REQUIRED = ("package.json",) + RUNTIME


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


def runtime_files(folder, packages):
    """The files of ``folder`` that a worker needs to run ``packages`` (names in its lock file), nothing more.

    The core (RUNTIME) and each package's wheel with its dependencies, as ``pyodide-lock.json`` lists them. A folder
    without a package's wheel (the npm core has none) simply serves without it.
    """
    lock = json.loads((Path(folder) / "pyodide-lock.json").read_text())["packages"]
    wheels = [lock[name]["file_name"] for name in with_dependencies(lock, packages)]
    return list(RUNTIME) + [w for w in wheels if (Path(folder) / w).is_file()]


def with_dependencies(lock_packages, packages):
    """The names of ``packages`` and of all they depend on, as a lock file's ``packages`` lists them, sorted."""
    names, wanted = set(), list(packages)
    while wanted:
        name = wanted.pop()
        if name in names or name not in lock_packages:
            continue
        names.add(name)
        wanted += lock_packages[name].get("depends", [])
    return sorted(names)


def copy_dist(folder, site_dir, packages):
    """Copy what a worker running ``packages`` needs into ``site_dir/pyodide`` (hard links when possible: it is
    ~16 MB). Demo pages, type stubs, source maps and READMEs stay out: some load scripts or styles from other
    origins."""
    target = Path(site_dir) / SITE_FOLDER
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for name in runtime_files(folder, packages):
        try:
            os.link(Path(folder) / name, target / name)
        except OSError:
            shutil.copy2(Path(folder) / name, target / name)
    return target
