"""The plugin's options, as written under ``plugins: - layerwise:`` in mkdocs.yml, checked by mkdocs' own config
machinery: a wrong type, a missing folder or an unknown option fails ``mkdocs build`` with mkdocs' message naming it.

Only ``package`` is required; a NumPy project without live widgets gets the cross-linker, the source pages, the
math and the link checks from it alone. Each later part is on when its option is given (ARCHITECTURE.md has the
table in short, scripts/build/README.md in full).
"""
import re
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c

_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


class ModuleName(c.Type):
    """A dotted module of the ``package`` option's package, such as ``engine.exercises``: its file must be there,
    since the browser gets only that package's wheel. Not imported here (the build imports it fresh)."""

    def __init__(self, example, **kwargs):
        super().__init__(str, **kwargs)
        self.example = example

    def run_validation(self, value):
        if isinstance(value, bool):  # `inside: true` as written before these options named modules
            raise base.ValidationError(f"give the part's module, such as {self.example}, not {str(value).lower()}")
        value = super().run_validation(value)
        if not _MODULE.fullmatch(value):
            raise base.ValidationError(f"{value!r} is not a Python module name (e.g. {self.example})")
        return value

    def post_validation(self, config, key_name):
        module = config[key_name]
        folder = Path(config.config_file_path or ".").resolve().parent / config["package"]
        if module is None or not folder.is_dir():  # a missing package folder is the option 'package''s error
            return
        package, *inner = module.split(".")
        if package != folder.name:
            raise base.ValidationError(f"the module {module} is not in the package {folder.name!r} (the option "
                                       f"'package'), whose wheel is all the browser gets")
        path = folder.joinpath(*inner)
        if not (path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()):
            raise base.ValidationError(f"there is no module {module}: neither {path}.py nor {path / '__init__.py'}")


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
    """The folder of the widgets' browser code (``widgets``): on, ```widget fences render and the package is
    packaged for Pyodide. Off when absent, and so is every part below. Needs ``kinds``."""
    kinds = c.Optional(ModuleName("engine.examples"))
    """The module of the widget kinds (``engine.examples``), which a ```widget fence's ``kind`` names: the build
    pre-renders with its ``get_kind(name)`` (``title``, ``description``, ``defaults()``, ``spec()``, ``run(inputs)``)
    and ``format_input``, the browser's worker recomputes with its ``run_json`` and ``finish_check_json``, a notebook
    with its ``run``. Needs ``widgets``."""
    pyodide_dist = c.Optional(c.Type(str))
    """A folder holding a Pyodide distribution to self-host in the site; absent: the ``PYODIDE_DIST`` environment
    variable, and without it the official CDN."""
    practice = c.Optional(ModuleName("engine.exercises"))
    """The module of the exercises (``engine.exercises``: ``ids``, ``get``, ``validate``): on, ```exercise and
    ```practice-index fences render. Needs ``widgets``."""
    notebooks = c.ListOfItems(c.Type(str), default=[])
    """The docs folders whose pages each get a notebook (``[layers, model]``); empty: none. Needs ``widgets``."""
    inside = c.Optional(ModuleName("engine.inside"))
    """The module of the page "Inside a trained model" (``engine.inside``): ```inside fences drawn by its
    ``panels`` from its ``analysis``, which the browser's worker runs too; the checkpoint is trained by the
    package's ``train``. Needs ``widgets``."""
    capstone = c.Optional(ModuleName("engine.capstone"))
    """The module of the page "Build your GPT" (``engine.capstone``): the ```capstone fence, from its ``layers``
    and ``reference``; practice's worker runs its ``session``. Needs ``practice``."""
    offline = c.Type(bool, default=False)
    """On: the site is installable (a web app manifest, icons) and kept by a service worker after one visit, so its
    pages, widgets, exercises and trainer work with the network off (``mkdocs serve`` keeps nothing). Needs
    ``widgets``."""

    def problems(self):
        """(option, message) for each option given without the one it builds on."""
        ships = "it uses what that part ships"
        needs = [("widgets", self.widgets is not None, "kinds", self.kinds is not None, "the module of the kinds "
                  "that ```widget fences name"),
                 ("kinds", self.kinds is not None, "widgets", self.widgets is not None, "the browser code that runs "
                  "them"),
                 ("practice", self.practice is not None, "widgets", self.widgets is not None, ships),
                 ("notebooks", bool(self.notebooks), "widgets", self.widgets is not None, ships),
                 ("inside", self.inside is not None, "widgets", self.widgets is not None, ships),
                 ("capstone", self.capstone is not None, "practice", self.practice is not None, ships),
                 ("offline", self.offline, "widgets", self.widgets is not None, "it keeps the runtime that part "
                  "ships")]
        return [(option, f"needs the option '{needed}' too ({why})")
                for option, given, needed, present, why in needs if given and not present]
