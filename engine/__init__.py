"""Layerwise's engine: every layer of a small GPT written out in NumPy, forward and backward, nothing hidden.

``import engine`` is cheap: a module such as ``engine.norms`` is imported the first time it is named (PEP 562), so
``engine.norms.layernorm_forward`` works after ``import engine`` while the browser's worker, which needs a handful of
modules for one widget, never imports the training loop or the checkpoint code.
NumPy and the standard library are the only dependencies: the same code runs in CPython and in Pyodide.
"""
import importlib
import os

__all__ = ["activations", "attention", "capstone", "checkpoint", "config", "data", "dropout", "embedding", "errors", "generate",
           "gradcheck", "init", "linear", "loss", "model", "norms", "optim", "residual", "softmax", "train"]


def __getattr__(name):
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def module_names(package_path):
    """The names of the modules in the folder ``package_path``, leaving out private ones (``_name``). Bytecode counts:
    the browser's wheel is compiled by ``pyodide py-compile`` and ships ``.pyc`` files without their sources.
    (pkgutil does the same but is slower to import in Pyodide.)"""
    stems = (os.path.splitext(file) for file in os.listdir(package_path))
    return sorted({stem for stem, suffix in stems if suffix in (".py", ".pyc") and not stem.startswith("_")})
