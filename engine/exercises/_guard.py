"""Keep what a learner's code does to the engine, NumPy and the builtins inside the learner's own calls.

Learner code may reassign ``np.sqrt``, ``np.random.default_rng``, ``engine.norms.layernorm_forward`` or
``builtins.len``. A :class:`ModuleGuard` snapshots those modules when a grade starts; :meth:`ModuleGuard.restore`
puts them back after each piece of learner code and returns what it had changed, and :meth:`ModuleGuard.apply`
hands those changes back to the learner's next call. So the grader's own comparisons, a known mistake and the next
grade always see the real modules, while a learner's module-level ``np.foo = ...`` still works in their function.
Engine modules first imported during a grade are dropped from ``sys.modules`` at its end, so a later exercise
imports them fresh. A submodule imported meanwhile (``np.fft`` on first use binds ``numpy.fft`` to ``numpy``) is no
change to undo: it joins the snapshot, as NumPy's lazy ``__getattr__`` would recurse forever on a submodule that is
in ``sys.modules`` but no longer an attribute of its package.
"""
import contextlib
import sys

# Bound here: restore() runs right after learner code, possibly with the learner's builtins still in place.
_dict, _id, _list, _map, _vars, _zip, _missing = dict, id, list, map, vars, zip, object()
_modules_now = sys.modules


def _guarded(name):
    """The engine's modules, the builtins and NumPy's public modules (``numpy``, ``numpy.random``, ``numpy.linalg``,
    ``numpy.lib.stride_tricks``, ...): not its private ``numpy._core.*``, whose thousands of names would cost
    milliseconds per check and which learner code does not reach by accident."""
    if name in ("builtins", "engine") or name.startswith("engine."):
        return True
    parts = name.split(".")
    return parts[0] == "numpy" and not any(part.startswith("_") for part in parts)


_modules = (-1, [])  # (len(sys.modules) when listed, the guarded modules then): listed again when it changes


def _guarded_modules():
    global _modules
    if _modules[0] != len(sys.modules):
        _modules = (len(sys.modules), [module for name, module in list(sys.modules.items()) if _guarded(name)])
    return _modules[1]


class ModuleGuard:
    def __init__(self):
        self.saved = [(_vars(module), _dict(_vars(module))) for module in _guarded_modules()]
        self.ids = [_list(_map(_id, saved.values())) for _, saved in self.saved]
        self.interpreter = sys.getrecursionlimit(), sys.gettrace()

    def restore_interpreter(self):
        """The recursion limit and the trace function, which learner code could also leave changed."""
        limit, trace = self.interpreter
        sys.setrecursionlimit(limit)
        sys.settrace(trace)

    def restore(self):
        """Put every guarded module back as it was; return the changes found, ``[(namespace, {key: value})]``,
        a removed name as ``_missing`` (usually ``[]``: compared by identity at C speed)."""
        changes = []
        for index, ((current, saved), ids) in enumerate(_zip(self.saved, self.ids)):
            if _list(_map(_id, current.values())) == ids:
                continue  # nothing touched, and no key added or removed
            changed = {key: current.get(key, _missing) for key in (current.keys() | saved.keys())
                       if current.get(key, _missing) is not saved.get(key, _missing)}
            imported = {key: value for key, value in changed.items() if _submodule(current, key, value, saved)}
            if imported:
                saved.update(imported)
                self.ids[index] = _list(_map(_id, saved.values()))
                changed = {key: value for key, value in changed.items() if key not in imported}
            current.clear()
            current.update(saved)
            if changed:
                changes.append((current, changed))
        return changes

    @staticmethod
    def apply(changes):
        """Hand the learner's earlier changes back to its next call (undone again by :meth:`restore`)."""
        for current, changed in changes:
            for key, value in changed.items():
                if value is _missing:
                    current.pop(key, None)
                else:
                    current[key] = value


def _submodule(namespace, key, value, saved):
    """Whether ``namespace[key]`` was bound by importing the submodule ``<package>.<key>`` (not a learner's
    assignment: that module is what ``sys.modules`` holds under the name)."""
    return (key not in saved and _modules_now.get(f"{namespace.get('__name__')}.{key}", _missing) is value)


@contextlib.contextmanager
def dropping_new_engine_modules():
    """Forget engine modules first imported inside the block, and put back any the learner removed."""
    before = {name: module for name, module in sys.modules.items() if name == "engine" or name.startswith("engine.")}
    try:
        yield
    finally:
        for name in [name for name in sys.modules if name.startswith("engine.") and name not in before]:
            del sys.modules[name]
        sys.modules.update(before)


@contextlib.contextmanager
def restoring_modules():
    """For learner code run outside a grade (Build your GPT's training, engine/capstone): whatever the block did to
    the guarded modules and the interpreter is undone at its end, and engine modules it first imported are dropped."""
    guard = ModuleGuard()
    try:
        with dropping_new_engine_modules():
            yield
    finally:
        guard.restore()
        guard.restore_interpreter()
