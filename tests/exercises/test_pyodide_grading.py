"""The grader where learners meet it: inside Pyodide (Python 3.13, WebAssembly NumPy), driven by Node.

Every exercise is validated there as the build validates it in CPython (solution passes, starter fails, every known
mistake fails with its own hint), and the learner-facing error of an exception carries the same line and text.
"""
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "bench"))
from pyodide_node import run_in_pyodide  # noqa: E402 - scripts/bench/ is not a package

PYODIDE_DIST = os.environ.get("PYODIDE_DIST")
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(not PYODIDE_DIST, reason="PYODIDE_DIST is not set: exercises were not graded inside Pyodide"),
    pytest.mark.skipif(NODE is None, reason="node is not installed: exercises were not graded inside Pyodide"),
]

PYTHON = """
import json, sys
from engine import exercises
failures = []
for exercise_id in exercises.ids():
    try:
        exercises.validate(exercise_id)
    except Exception as error:
        failures.append(str(error))
error = json.loads(exercises.grade_json("layernorm-forward", "def layernorm_forward(x, gamma, beta):\\n"
                                        "    return x / nothing\\n"))["error"]
refused = json.loads(exercises.grade_json("causal-mask", "from engine.attention import causal_mask as cm\\n"
                                          "def causal_mask(T):\\n    return cm(T)\\n"))["failure"]["message"]
imported = json.loads(exercises.grade_json("causal-mask", "import engine.attention\\n"
                                           + exercises.get("causal-mask").SOLUTION))["passed"]
json.dumps({"python": sys.version.split()[0], "count": len(exercises.ids()), "failures": failures, "error": error,
            "refused": refused, "imported": imported})
"""

def test_every_exercise_validates_inside_pyodide():
    report = json.loads(run_in_pyodide(PYTHON, PYODIDE_DIST))
    assert report["python"].startswith("3.13")
    assert report["count"] >= 30 and report["failures"] == []
    assert report["error"] == {"type": "NameError", "message": "name 'nothing' is not defined", "line": 2,
                               "code": "return x / nothing"}
    # The engine's own function is refused there too (sys.monitoring on Python 3.13), importing it is not
    assert report["refused"] == ("Your `causal_mask` calls `engine.attention.causal_mask`: practice code is plain "
                                 "NumPy, so write it without `engine.attention.causal_mask`.")
    assert report["imported"] is True
