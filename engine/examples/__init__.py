"""Widget kinds: small worked examples that the build pre-renders and the browser recomputes live.

Every module in this package that defines ``KIND`` (an :class:`engine.examples.kind.Kind`) is a kind, named as its
module, so adding a kind is adding one module. :func:`run` is the single entry point for the build and the Pyodide
worker; :func:`run_json` is its string-in, string-out twin for the worker. A kind's module is imported when the kind
is first asked for, so the worker starts without importing all of them; ``KINDS`` (every kind) imports them all.
"""
import importlib
import importlib.util
import json

from .. import module_names
from ..errors import LayerwiseError
from .fmt import format_input  # re-exported: the build writes input cells with it (engine/examples/README.md)
from .kind import Kind

_HELPERS = {"kind", "fmt", "svg"}
_loaded = {}  # kind name -> Kind, filled as kinds are asked for


def _kind_modules():
    return [name for name in module_names(__path__[0]) if name not in _HELPERS]


def _import_kind(name):
    module = importlib.import_module(f"{__name__}.{name}")
    kind = getattr(module, "KIND", None)
    if isinstance(kind, Kind) and kind.name != name:
        raise LayerwiseError(f"widget kind {kind.name!r} is defined in module {module.__name__}; a kind is named "
                             f"as its module")
    return kind


def __getattr__(attribute):  # PEP 562: ``KINDS`` is built on first use, importing every kind module
    if attribute != "KINDS":
        raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
    kinds = {}
    for name in _kind_modules():
        kind = _loaded.get(name) or _import_kind(name)
        if isinstance(kind, Kind):
            kinds[name] = _loaded[name] = kind
    globals()["KINDS"] = kinds
    return kinds


def get_kind(name):
    """The kind called ``name``, importing only its own module."""
    if name in _loaded:
        return _loaded[name]
    is_module = (isinstance(name, str) and name.isidentifier() and name not in _HELPERS and not name.startswith("_")
                 and importlib.util.find_spec(f"{__name__}.{name}") is not None)
    kind = _import_kind(name) if is_module else None
    if not isinstance(kind, Kind):
        known = ", ".join(n for n in _kind_modules() if isinstance(_loaded.get(n) or _import_kind(n), Kind))
        raise LayerwiseError(f"unknown widget kind {name!r}; known kinds: {known}")
    _loaded[name] = kind
    return kind


def run(name, inputs):
    """Compute the example ``name`` for ``inputs`` ({input name: nested list}); returns a JSON-safe dict."""
    return get_kind(name).run(inputs)


_deferred_checks = {}  # the browser's latest gradient check per widget, run later by finish_check_json(key)


def run_json(name, inputs_json, key=""):
    """For the browser: JSON in, JSON out, with the gradient check left for ``finish_check_json(key)``.

    ``key`` names the widget: its new result replaces its previous, not yet run, check. Bad input becomes
    ``{"error": message}``.
    """
    _deferred_checks.pop(key, None)
    try:
        result, _deferred_checks[key] = get_kind(name).run_deferred(json.loads(inputs_json))
        return json.dumps(result, allow_nan=False)
    except LayerwiseError as error:
        return json.dumps({"kind": name, "error": str(error)})


def finish_check_json(key=""):
    """The gradient check of widget ``key``'s latest result, as JSON (``null`` when none is waiting)."""
    finish = _deferred_checks.pop(key, None)
    return json.dumps(finish() if finish else None, allow_nan=False)
