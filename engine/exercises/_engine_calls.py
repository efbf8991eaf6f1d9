"""Notice a learner's code calling the engine's own functions, which are the answers the grader compares with.

A profile hook, set only while learner code runs, records the calls into Python functions of the engine's
files outside ``engine/exercises/`` (the grader, and the cases' own functions such as ``numerical_gradient``'s
``f``). Watching the call itself, rather than reading the source, catches every route to it: ``from engine.norms
import layernorm_backward as lb``, ``getattr``, a module imported under another name, an exercise's ``reference``
(which calls the engine).
"""
import os
import sys

ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
EXERCISES_DIR = os.path.join(ENGINE_DIR, "exercises") + os.sep


def _in_engine(filename):
    return filename.startswith(ENGINE_DIR) and not filename.startswith(EXERCISES_DIR)


class EngineCalls:
    def __init__(self, answers=()):
        self.answers = answers  # code objects of the exercise's own engine functions, named first when called
        self.called = []        # code objects of the engine functions called, in order (with repeats)

    def watch(self):
        sys.setprofile(self._profile)

    @staticmethod
    def stop():
        sys.setprofile(None)

    def _profile(self, frame, event, arg):
        # Runs inside learner code, under whatever builtins it left: string methods and attributes only. Importing
        # an engine module is no call (its module code, and the class bodies that code runs, are let through); nor
        # is one engine function calling another (the outer one is what the learner's code called).
        code = frame.f_code
        if event == "call" and _in_engine(code.co_filename) and code.co_name != "<module>":
            caller = frame.f_back
            if caller is None or not _in_engine(caller.f_code.co_filename):
                self.called.append(code)

    def name(self):
        """The dotted name of the engine function to name, e.g. ``engine.norms.layernorm_backward``: one of the
        exercise's own if it was called (``exercises.get`` reaches ``engine.module_names`` on the way), else the
        first."""
        code = next((code for code in self.called if code in self.answers), self.called[0])
        module = os.path.relpath(code.co_filename, ENGINE_DIR)[:-len(".py")].replace(os.sep, ".")
        module = "engine" if module == "__init__" else "engine." + module.removesuffix(".__init__")
        return f"{module}.{code.co_qualname}"
