"""Import the package the site documents; re-import it only when its files changed (a `mkdocs serve` edit).

Re-importing replaces the package's modules in `sys.modules`, which other hooks of the same process (the widgets'
pre-render) may hold too, so it happens only when the code on disk really differs from what was imported.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from types import ModuleType

from .project import Project

# package name -> (fingerprint of its files when imported, (package, modules by short name))
_LOADED: dict[str, tuple[object, tuple[ModuleType, dict[str, ModuleType]]]] = {}


def load_package(project: Project, fingerprint: object) -> tuple[ModuleType, dict[str, ModuleType]]:
    """The package and its submodules by short name (`linear`, `norms`, ...); `fingerprint` identifies the
    content of its files (the code index's digests), so an unchanged package is not imported again."""
    name = project.package
    if name in _LOADED and _LOADED[name][0] == fingerprint:
        return _LOADED[name][1]
    if name in _LOADED:  # imported before, from files that have changed since
        for module in [n for n in sys.modules if n == name or n.startswith(name + ".")]:
            del sys.modules[module]
    root = str(project.root)
    added = root not in sys.path
    if added:
        sys.path.insert(0, root)
    try:
        package = importlib.import_module(name)
        modules = {info.name: importlib.import_module(f"{name}.{info.name}")
                   for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith("_")}
    finally:
        if added:
            sys.path.remove(root)
    _LOADED[name] = (fingerprint, (package, modules))
    return package, modules
