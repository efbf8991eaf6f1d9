"""Put the interpreter back as it was before any learner code ran: what ``_guard`` does not cover.

``_guard`` restores the *names* of NumPy's public modules, the engine's and the builtins, and hands a learner's own
changes back to its next call. Learner code can reach further: NumPy's private modules (the functions behind
``np.isclose``), a function's ``__code__`` or defaults swapped in place, a class's methods (``np.errstate``),
``json``, the ``sys.modules`` entries, NumPy's error and print settings, ``gc``'s callbacks and the trace and
profile hooks. The :class:`Seal` takes a baseline of all of that once per process, before the first learner code
runs, and :meth:`Seal.restore` puts back whatever differs: after each window of learner code and around each grade,
so no check of this grade and no later grade sees the change. Comparisons are by identity over lists at C speed:
a restore with nothing changed costs well under a millisecond.

What it cannot undo (said here, not hidden): an audit hook (``sys.addaudithook`` is permanent) and changes to
modules first imported while learner code ran, whose pristine state was never seen.
"""
import gc
import sys
import types
from itertools import chain
from operator import attrgetter, methodcaller

import numpy as np

SEALED = ("numpy", "engine", "json", "builtins", "math", "operator", "functools", "contextlib", "warnings", "io",
          "copy", "types", "re")
_codes, _defaults, _kwdefaults = attrgetter("__code__"), attrgetter("__defaults__"), attrgetter("__kwdefaults__")
_values, _class_dict, _flat = methodcaller("values"), attrgetter("__dict__"), chain.from_iterable
_id, _list, _map, _vars, _setattr, _delattr, _missing = id, list, map, vars, setattr, delattr, object()


def _sealed(name):
    return name.partition(".")[0] in SEALED


class Seal:
    def __init__(self):
        modules = [(name, module) for name, module in _list(sys.modules.items())
                   if _sealed(name) and isinstance(module, types.ModuleType)]
        self.names = [name for name, _ in modules]
        self.modules = [module for _, module in modules]
        # The engine's module namespaces are ModuleGuard's (its own state, such as this module's _seal, changes
        # by design); their functions and classes are sealed here.
        self.namespaces = [(_vars(module), dict(_vars(module))) for name, module in modules
                           if not name.startswith("engine")]
        self.ids = [_list(_map(_id, saved.values())) for _, saved in self.namespaces]
        functions, classes = {}, {}
        for module in self.modules:
            for value in _list(_vars(module).values()):
                _collect(value, functions, classes)
        self.classes = [(cls, dict(cls.__dict__)) for cls in classes.values()]
        self.class_ids = [_list(_map(_id, saved.values())) for _, saved in self.classes]
        self.class_objects = [cls for cls, _ in self.classes]
        self.dicts = [current for current, _ in self.namespaces]
        self.all_ids = _list(_flat(self.ids)), _list(_flat(self.class_ids))
        for _, saved in self.classes:
            for value in saved.values():
                value = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
                if isinstance(value, types.FunctionType):
                    functions[_id(value)] = value
        self.functions = _list(functions.values())
        self.attributes = [(name, getter, _list(_map(getter, self.functions)))
                           for name, getter in (("__code__", _codes), ("__defaults__", _defaults),
                                                ("__kwdefaults__", _kwdefaults))]
        self.attribute_ids = [_list(_map(_id, values)) for _, _, values in self.attributes]
        self.settings = np.geterr(), np.getbufsize(), np.get_printoptions()
        self.hooks = sys.getrecursionlimit(), gc.isenabled(), _list(gc.callbacks), sys.gettrace(), sys.getprofile()

    def restore(self):
        """Put back whatever differs from the baseline; return the number of things put back (0 usually)."""
        return self._restore_modules() + self._restore_functions() + self._restore_settings()

    def _restore_modules(self):
        count = 0
        now = _list(_map(sys.modules.get, self.names))
        if now != self.modules:
            for name, module, current in zip(self.names, self.modules, now):
                if current is not module:
                    sys.modules[name] = module
                    count += 1
        namespace_ids, class_ids = self.all_ids  # one comparison each while nothing changed
        if _list(_map(_id, _flat(_map(_values, self.dicts)))) != namespace_ids:
            for index, (current, saved) in enumerate(self.namespaces):
                if _list(_map(_id, current.values())) != self.ids[index]:
                    count += _put_back(current, saved)
                    self.ids[index] = _list(_map(_id, saved.values()))  # a submodule imported meanwhile joined
            self.all_ids = _list(_flat(self.ids)), class_ids
        if _list(_map(_id, _flat(_map(_values, _map(_class_dict, self.class_objects))))) != class_ids:
            for (cls, saved), ids in zip(self.classes, self.class_ids):
                if _list(_map(_id, cls.__dict__.values())) != ids:
                    count += _put_back_class(cls, saved)
        return count

    def _restore_functions(self):
        count = 0
        for (name, getter, values), ids in zip(self.attributes, self.attribute_ids):
            now = _list(_map(getter, self.functions))
            if _list(_map(_id, now)) == ids:
                continue
            for function, saved, current in zip(self.functions, values, now):
                if current is not saved:
                    _setattr(function, name, saved)
                    count += 1
        return count

    def _restore_settings(self):
        count = 0
        errors, bufsize, printing = self.settings
        if np.geterr() != errors:
            np.seterr(**errors)
            count += 1
        if np.getbufsize() != bufsize:
            np.setbufsize(bufsize)
            count += 1
        if np.get_printoptions() != printing:
            np.set_printoptions(**printing)
            count += 1
        limit, enabled, callbacks, trace, profile = self.hooks
        if sys.getrecursionlimit() != limit:
            sys.setrecursionlimit(limit)
            count += 1
        if gc.isenabled() != enabled:
            (gc.enable if enabled else gc.disable)()
            count += 1
        if gc.callbacks != callbacks:
            gc.callbacks[:] = callbacks
            count += 1
        if sys.gettrace() is not trace or sys.getprofile() is not profile:
            sys.settrace(trace)
            sys.setprofile(profile)
            count += 1
        return count

    def missing(self):
        """Whether a sealed module outside the engine was imported since the baseline (NumPy's lazily imported
        submodules, ``json.decoder``...): engine modules imported during a grade are dropped at its end instead."""
        known = set(self.names)
        return any(_sealed(name) and not name.startswith("engine") and name not in known
                   for name in _list(sys.modules))


def _collect(value, functions, classes):
    """Functions and Python classes (their methods too) defined in the sealed modules, by id."""
    if isinstance(value, types.FunctionType):
        functions[_id(value)] = value
    elif isinstance(getattr(type(value), "_implementation", None), types.FunctionType) or isinstance(
            getattr(value, "_implementation", None), types.FunctionType):  # NumPy's dispatchers (np.isclose)
        functions[_id(value._implementation)] = value._implementation
    elif isinstance(value, type) and _sealed(getattr(value, "__module__", None) or "") and _mutable(value):
        classes[_id(value)] = value


def _mutable(cls):
    """A class whose attributes can be set: a heap type (a Python class), not marked immutable (``np.ndarray``)."""
    return bool(cls.__flags__ & (1 << 9)) and not cls.__flags__ & (1 << 8)


def submodule(namespace, key, value, saved):
    """Whether ``namespace[key]`` was bound by importing the submodule ``<package>.<key>`` (not a learner's
    assignment: that module is what ``sys.modules`` holds under the name). Such a binding stays: NumPy's lazy
    ``__getattr__`` recurses forever on a submodule that is in ``sys.modules`` but not an attribute of its package."""
    return key not in saved and sys.modules.get(f"{namespace.get('__name__')}.{key}", _missing) is value


def _put_back(current, saved):
    changed = [key for key in current.keys() | saved.keys() if current.get(key, _missing) is not saved.get(key,
                                                                                                           _missing)]
    imported = {key: current[key] for key in changed if submodule(current, key, current.get(key), saved)}
    saved.update(imported)
    current.clear()
    current.update(saved)
    return len(changed) - len(imported)


def _put_back_class(cls, saved):
    count = 0
    for key in _list(cls.__dict__):
        if key not in saved:
            _delattr(cls, key)
            count += 1
    for key, value in saved.items():
        if cls.__dict__.get(key, _missing) is not value and key not in ("__dict__", "__weakref__"):
            try:
                _setattr(cls, key, value)
            except (AttributeError, TypeError):  # read-only slots such as __doc__ on some types
                continue
            count += 1
    return count


_seal = None


def sealed():
    """The process's seal, restored: its baseline is taken on the first call (the grader calls it when a grade
    starts, before any learner code), and taken again, once restored, when modules were imported meanwhile."""
    global _seal
    if _seal is None:
        _seal = Seal()
        return _seal
    _seal.restore()
    if _seal.missing():
        _seal = Seal()
    return _seal
