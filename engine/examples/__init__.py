"""Widget kinds: small worked examples that the build pre-renders and the browser recomputes live.

Every module in this package that defines ``KIND`` (an :class:`engine.examples.kind.Kind`) is a kind, found by
name, so adding a kind is adding one module. :func:`run` is the single entry point for the build and the Pyodide
worker; :func:`run_json` is its string-in, string-out twin for the worker.
"""
import importlib
import json
import pkgutil

from ..errors import LayerwiseError
from .kind import Kind

_HELPERS = {"kind", "fmt", "svg"}


def _discover():
    kinds = {}
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name in _HELPERS or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        kind = getattr(module, "KIND", None)
        if isinstance(kind, Kind):
            if kind.name in kinds:
                raise LayerwiseError(f"widget kind {kind.name!r} is defined twice ({module.__name__})")
            kinds[kind.name] = kind
    return kinds


KINDS = _discover()


def get_kind(name):
    try:
        return KINDS[name]
    except KeyError:
        raise LayerwiseError(f"unknown widget kind {name!r}; known kinds: {', '.join(sorted(KINDS))}") from None


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
