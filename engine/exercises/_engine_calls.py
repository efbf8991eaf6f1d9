"""Notice a learner's code calling the engine's own functions, which are the answers the grader compares with.

While learner code runs, every start of a Python function is looked at, and the calls into functions of the
engine's files outside ``engine/exercises/`` (the grader, and the cases' own functions such as
``numerical_gradient``'s ``f``) made from outside the engine are recorded. Watching the call itself, rather than
reading the source, catches every route to it: ``from engine.norms import layernorm_backward as lb``, ``getattr``,
a module imported under another name, an exercise's ``reference`` (which calls the engine). On Python 3.12+ (the
browser's Pyodide) ``sys.monitoring`` reports function starts only, and never again from code outside the engine;
on older Pythons a profile hook sees every call.
"""
import os
import sys

ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
EXERCISES_DIR = os.path.join(ENGINE_DIR, "exercises") + os.sep
_monitoring = getattr(sys, "monitoring", None)
_watching = []  # the EngineCalls of the open window (at most one)


def _in_engine(filename):
    return filename.startswith(ENGINE_DIR) and not filename.startswith(EXERCISES_DIR)


def _note(code, frame):
    """Record ``code`` starting in ``frame`` if the learner's side called it. Runs inside learner code, under
    whatever builtins it left: attributes and string methods only. Importing an engine module is no call (its
    module code, and the class bodies that code runs), nor is one engine function calling another."""
    if code.co_name != "<module>":
        caller = frame.f_back
        if caller is None or not _in_engine(caller.f_code.co_filename):
            _watching[0].called.append(code)


def _on_start(code, offset):
    if not _in_engine(code.co_filename):
        return _monitoring.DISABLE  # numpy's and the learner's functions: not reported to this tool again
    if _watching:
        frame = sys._getframe(1)
        while frame is not None and frame.f_code is not code:  # the frame that is starting, just above this one
            frame = frame.f_back
        if frame is not None:
            _note(code, frame)
    return None


def _claim_tool():
    """A sys.monitoring tool id of our own (3 and 4 are free by convention), or None: then the profile hook."""
    for tool in (4, 3):
        try:
            _monitoring.use_tool_id(tool, "layerwise exercises")
        except ValueError:
            continue
        _monitoring.register_callback(tool, _monitoring.events.PY_START, _on_start)
        return tool
    return None


_TOOL = _claim_tool() if _monitoring else None


class EngineCalls:
    def __init__(self, answers=()):
        self.answers = answers  # code objects of the exercise's own engine functions, named first when called
        self.called = []        # code objects of the engine functions called, in order (with repeats)

    def watch(self):
        _watching[:] = [self]
        if _TOOL is None:
            sys.setprofile(_profile)
        else:
            _monitoring.set_events(_TOOL, _monitoring.events.PY_START)

    @staticmethod
    def stop():
        if _TOOL is None:
            sys.setprofile(None)
        else:
            _monitoring.set_events(_TOOL, 0)
        _watching.clear()

    def name(self):
        """The dotted name of the engine function to name, e.g. ``engine.norms.layernorm_backward``: one of the
        exercise's own if it was called (``exercises.get`` reaches ``engine.module_names`` on the way), else the
        first."""
        code = next((code for code in self.called if code in self.answers), self.called[0])
        module = os.path.relpath(code.co_filename, ENGINE_DIR)[:-len(".py")].replace(os.sep, ".")
        module = "engine" if module == "__init__" else "engine." + module.removesuffix(".__init__")
        return f"{module}.{code.co_qualname}"


def _profile(frame, event, arg):
    if event == "call" and _in_engine(frame.f_code.co_filename):
        _note(frame.f_code, frame)
