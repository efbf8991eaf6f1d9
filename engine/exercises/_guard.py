"""Undo what a learner's code did to the engine and NumPy modules, so the next run starts from the real ones.

The references of an exercise are bound when its module is imported, but an exercise imported *later* in the same
worker would bind whatever a previous run left in ``engine.norms``. So every run is wrapped: attributes of the
already imported ``engine`` modules, of ``numpy`` itself and of ``builtins`` are put back, and engine modules first
imported during the run are dropped from ``sys.modules`` (the next import reads them fresh from the package).
"""
import contextlib
import operator
import sys


def _guarded(name):
    """Every engine module, NumPy's top level (``np.mean = ...``) and the builtins the grader itself uses; NumPy's
    hundreds of submodules would cost milliseconds per run to copy, and learner code rarely reaches into them."""
    return name in ("numpy", "builtins", "engine") or name.startswith("engine.")


@contextlib.contextmanager
def restoring_modules():
    before = {name: (module, dict(vars(module))) for name, module in list(sys.modules.items()) if _guarded(name)}
    try:
        yield
    finally:
        for name, (module, saved) in before.items():
            _restore(vars(module), saved)
            sys.modules[name] = module
        for name in [name for name in sys.modules if name.startswith("engine.") and name not in before]:
            del sys.modules[name]


def _restore(current, saved):
    if current.keys() == saved.keys() and all(map(operator.is_, current.values(), saved.values())):
        return  # the usual case, checked at C speed: nothing was touched
    for key in [key for key in current if key not in saved]:
        del current[key]
    for key, value in saved.items():
        if current.get(key, saved) is not value:
            current[key] = value
