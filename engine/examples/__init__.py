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


def run_json(name, inputs_json):
    """For the browser: JSON in, JSON out; bad input becomes ``{"error": message}`` instead of an exception."""
    try:
        return json.dumps(run(name, json.loads(inputs_json)), allow_nan=False)
    except LayerwiseError as error:
        return json.dumps({"kind": name, "error": str(error)})
