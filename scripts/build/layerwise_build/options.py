"""The plugin's options, as written under ``plugins: - layerwise:`` in mkdocs.yml, checked by mkdocs' own config
machinery: a wrong type, a missing folder or an unknown option fails ``mkdocs build`` with mkdocs' message naming it.

Only ``package`` is required; a NumPy project without live widgets gets the cross-linker, the source pages, the
math and the link checks from it alone. Each later part is on when its option is given (ARCHITECTURE.md, "The
plugin and its options", has the table).
"""
import re
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c

_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


class ModuleName(c.Type):
    """A dotted Python module name such as ``engine.exercises``; not imported here (the build imports it fresh)."""

    def __init__(self, **kwargs):
        super().__init__(str, **kwargs)

    def run_validation(self, value):
        value = super().run_validation(value)
        if not _MODULE.fullmatch(value):
            raise base.ValidationError(f"{value!r} is not a Python module name (e.g. engine.exercises)")
        return value


class ProjectFolder(c.Type):
    """A folder beside mkdocs.yml, written relative to it with ``/`` (``engine``, ``tests/site/fixtures``): the
    cross-linker matches these against the paths it indexes."""

    def __init__(self, must_exist=True, **kwargs):
        super().__init__(str, **kwargs)
        self.must_exist = must_exist

    def run_validation(self, value):
        value = super().run_validation(value).strip("/")
        if not value or value.startswith(".") or "\\" in value or Path(value).is_absolute():
            raise base.ValidationError(f"{value!r}: give a folder relative to mkdocs.yml's, such as 'engine'")
        return value

    def post_validation(self, config, key_name):
        value = config[key_name]
        root = Path(config.config_file_path or ".").resolve().parent
        if self.must_exist and value is not None and not (root / value).is_dir():
            raise base.ValidationError(f"there is no folder {root / value}")


class LayerwiseOptions(base.Config):
    package = ProjectFolder()
    """The package the pages explain, a folder beside mkdocs.yml (``engine``): indexed, cross-linked, given
    source pages; its tests' calls are "Tests it"."""
    tests = ProjectFolder(default="tests")
    """The folder of the tests whose calls count as "Tests it" and whose files get source pages too."""
    demos = c.ListOfItems(ProjectFolder(), default=[])
    """Folders of the package that only demonstrate helpers (widget kinds, ``engine/examples``): not "Calls it"."""
    exclude = c.ListOfItems(ProjectFolder(must_exist=False), default=[])
    """Folders under the package or its tests that are not part of the project (fixtures): not indexed."""
    widgets = c.Optional(c.Dir(exists=True))
    """The folder of the widgets' browser code (``widgets``): on, ```widget fences render and the engine is
    packaged for Pyodide. Off when absent, and so is every part below."""
    pyodide_dist = c.Optional(c.Type(str))
    """A folder holding a Pyodide distribution to self-host in the site; absent: the ``PYODIDE_DIST`` environment
    variable, and without it the official CDN."""
    practice = c.Optional(ModuleName())
    """The module of the exercises (``engine.exercises``: ``ids``, ``get``, ``validate``): on, ```exercise and
    ```practice-index fences render. Needs ``widgets``."""
    notebooks = c.ListOfItems(c.Type(str), default=[])
    """The docs folders whose pages each get a notebook (``[layers, model]``); empty: none. Needs ``widgets``."""
    inside = c.Type(bool, default=False)
    """The page "Inside a trained model": ```inside fences and the trained checkpoint. Needs ``widgets``."""
    capstone = c.Type(bool, default=False)
    """The page "Build your GPT": the ```capstone fence. Needs ``practice``."""

    def problems(self):
        """(option, message) for each option given without the one it builds on."""
        needs = [("practice", self.practice is not None, "widgets", self.widgets is not None),
                 ("notebooks", bool(self.notebooks), "widgets", self.widgets is not None),
                 ("inside", self.inside, "widgets", self.widgets is not None),
                 ("capstone", self.capstone, "practice", self.practice is not None)]
        return [(option, f"needs the option '{needed}' too (it uses what that part ships)")
                for option, given, needed, present in needs if given and not present]
