"""Run the learner's code: its module once, then its functions, each run inside a *window*.

In a window the learner's earlier changes to the guarded modules are in force and the engine's functions are
watched; when it closes, the modules are restored (see ``_guard``) and whatever came back is already turned into
plain NumPy arrays, so no learner code runs while the grader compares. Anything raised, ``KeyboardInterrupt`` and
``SystemExit`` included, comes out as :class:`Raised`.
"""
import builtins

import numpy as np

from ._engine_calls import EngineCalls

LEARNER_FILE = "<your code>"
# Bound here, not looked up in numpy or builtins while a window is open.
_BaseException, _asarray, _dict, _isinstance, _list, _ndarray, _str, _tuple, _type = (
    BaseException, np.asarray, dict, isinstance, list, np.ndarray, str, tuple, type)


class Raised(Exception):
    """The learner's code raised ``error`` (any ``BaseException``)."""

    def __init__(self, error):
        super().__init__(type(error).__name__)
        self.error = error


class Refused(Exception):
    """The learner's code called the engine function named ``name``."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name


class Returned:
    """A learner function's return value, converted inside the window: ``whole`` as one array (None if it is not
    numbers), ``parts`` one array or None per item when it is a tuple or list (else None). A dict with text keys
    (an optimiser's parameters) becomes a plain dict of such arrays, wherever an array could stand."""

    def __init__(self, value):
        self.value = value
        self.whole = _converted(value)
        self.parts = _tuple(_converted(item) for item in value) if _isinstance(value, (_tuple, _list)) else None


def _converted(value):
    if not _isinstance(value, _dict):
        return _numbers(value)
    try:
        items = _list(value.items())
    except _BaseException:  # noqa: BLE001 - a dict subclass whose items() raises
        return None
    converted = {}
    for key, item in items:
        if not _isinstance(key, _str):
            return None
        converted[key] = _numbers(item)
    return converted


def _numbers(value):
    try:
        array = _asarray(value)
    except _BaseException:  # noqa: BLE001 - ragged lists, objects NumPy cannot hold, a raising __array__
        return None
    return array if _type(array) is _ndarray and array.dtype.kind in "biuf" else None


class Learner:
    def __init__(self, source, guard, answers=(), given=None):
        self.source = source
        self.given = given or {}  # functions the exercise hands the learner by name (``_given``)
        self.guard = guard
        self.answers = answers  # code objects of the exercise's engine functions (see EngineCalls)
        self.changes = []  # what the module-level code changed in the guarded modules, given to every call
        self.namespace = {}

    def define(self):
        """Compile and run the learner's module (SyntaxError escapes as itself); return its namespace."""
        code = compile(self.source, LEARNER_FILE, "exec")
        self.namespace = {"np": np, "__name__": "__learner__", "__builtins__": builtins, **self.given}
        self._run(exec, (code, self.namespace), keep_changes=True)
        return self.namespace

    def call(self, function, args, watch_engine=True):
        """``function(*args)`` in a window, as :class:`Returned`."""
        return self._run(lambda: Returned(function(*args)), (), watch_engine=watch_engine)

    def run(self, function, args=()):
        """``function(*args)`` in a window without the engine watched (the grader's own loops around learner
        code, such as the gradient check's central differences); its result as it is."""
        return self._run(function, args, watch_engine=False)

    def _run(self, function, args, keep_changes=False, watch_engine=True):
        calls = EngineCalls(self.answers)
        self.guard.apply(self.changes)
        if watch_engine:
            calls.watch()
        result = error = None
        try:
            result = function(*args)
        except _BaseException as raised:  # noqa: BLE001 - whatever the learner raised becomes a verdict
            error = raised
        finally:
            calls.stop()
            changes = self.guard.restore()
        if keep_changes:
            self.changes = changes
        if calls.called:
            raise Refused(calls.name())
        if error is not None:
            raise Raised(error)
        return result
