"""Import the package the site documents, fresh for every build, so `mkdocs serve` sees engine edits."""
from __future__ import annotations

import importlib
import pkgutil
import sys
from types import ModuleType

from .project import Project


def load_package(project: Project) -> tuple[ModuleType, dict[str, ModuleType]]:
    """The package and its submodules by short name (`linear`, `norms`, ...), re-imported from disk."""
    for name in [n for n in sys.modules if n == project.package or n.startswith(project.package + ".")]:
        del sys.modules[name]
    root = str(project.root)
    added = root not in sys.path
    if added:
        sys.path.insert(0, root)
    try:
        package = importlib.import_module(project.package)
        modules = {}
        for info in pkgutil.iter_modules(package.__path__):
            if not info.ispkg and not info.name.startswith("_"):
                modules[info.name] = importlib.import_module(f"{project.package}.{info.name}")
    finally:
        if added:
            sys.path.remove(root)
    return package, modules
