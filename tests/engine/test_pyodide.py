"""The engine's own tests, run inside Pyodide (Python 3.13, WebAssembly NumPy) under Node: the same modules that pass
in CPython pass there, against the engine wheel the site ships, loaded by name through a pyodide-lock.json."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from layerwise_build.livewidgets import engine_package

ROOT = Path(__file__).resolve().parents[2]

PYODIDE_DIST = os.environ.get("PYODIDE_DIST")
NODE = shutil.which("node")
CACHE = ROOT / ".cache"
# Test modules that cannot run inside Pyodide, and why; every other tests/engine module runs there.
NOT_IN_PYODIDE = {
    "test_pyodide.py": "drives Node and Pyodide from CPython",
    "test_package.py": "reads the engine's .py sources, which the compiled wheel replaces by bytecode",
    "test_torch_reference.py": "needs PyTorch, which has no Pyodide build",
}

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(not PYODIDE_DIST, reason="PYODIDE_DIST is not set: the engine's tests were not run inside "
                                                "Pyodide (see ../shared/README.md for a Pyodide folder with NumPy)"),
    pytest.mark.skipif(NODE is None, reason="node is not installed: the engine's tests were not run inside Pyodide"),
]

NODE_SCRIPT = """
import { loadPyodide } from %(module)s;
import fs from "node:fs";
const [dist, lock, project, tests] = %(paths)s;
const py = await loadPyodide({ indexURL: dist, lockFileURL: lock });
// By name: the lock file says where the engine wheel is and that it needs NumPy.
await py.loadPackage("layerwise", { messageCallback: () => {} });
await py.loadPackage(%(test_wheels)s, { messageCallback: () => {} });
// The project's pytest settings and the test modules; not engine/, which must come from the wheel.
py.FS.mkdirTree(project + "/tests/engine");
py.FS.writeFile(project + "/pyproject.toml", fs.readFileSync(%(pyproject)s));
for (const [name, file] of tests) py.FS.writeFile(project + "/tests/engine/" + name, fs.readFileSync(file));
await py.runPythonAsync(`
import json, os, sys, numpy, pytest, engine
os.chdir(${JSON.stringify(project)})
sys.dont_write_bytecode = True
exit_code = int(pytest.main(["-p", "no:cacheprovider", "tests/engine"]))
print(json.dumps({"exit": exit_code, "python": sys.version.split()[0], "numpy": numpy.__version__,
                  "engine": engine.__file__}))
`);
"""


def pytest_wheels(python):
    """pytest (this environment's version) and its pure-Python dependencies as wheels for Python ``python`` ("3.13"),
    downloaded by pip once and kept in .cache/."""
    folder = CACHE / "pyodide-test-wheels" / f"pytest-{pytest.__version__}-py{python}"
    if not any(folder.glob("pytest-*.whl")):
        partial = folder.with_suffix(".partial")
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", f"pytest=={pytest.__version__}",
                        "--only-binary=:all:", "--python-version", python, "--implementation", "py", "--abi", "none",
                        "--platform", "any", "--dest", str(partial)], check=True, capture_output=True, timeout=600)
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)
    return sorted(str(p) for p in folder.glob("*.whl"))


def cpython_count(modules):
    """How many tests CPython collects from ``modules``."""
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             *map(str, modules)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    return int(re.search(r"^(\d+) tests? collected", listed.stdout, re.M).group(1))


def test_the_engine_tests_pass_inside_pyodide(tmp_path):
    dist = Path(PYODIDE_DIST).resolve()
    # The runtime's packages (NumPy) by absolute path, the engine wheel beside the lock file.
    package, _ = engine_package.build(ROOT, "engine", dist / engine_package.LOCK, f"{dist}/",
                                      CACHE / "layerwise-engine")
    modules = sorted(p for p in (ROOT / "tests" / "engine").glob("test_*.py") if p.name not in NOT_IN_PYODIDE)
    script = tmp_path / "run.mjs"
    script.write_text(NODE_SCRIPT % {
        "module": json.dumps(str(ROOT / "node_modules" / "pyodide" / "pyodide.mjs")),
        "paths": json.dumps([f"{dist}/", str(package / engine_package.LOCK), "/home/pyodide/layerwise",
                             [[p.name, str(p)] for p in modules]]),
        "test_wheels": json.dumps(pytest_wheels(engine_package.lock_python(dist / engine_package.LOCK))),
        "pyproject": json.dumps(str(ROOT / "pyproject.toml")),
    })
    run = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=1200)
    output = run.stdout.strip().splitlines()
    assert run.returncode == 0 and output, run.stderr[-4000:]
    report = json.loads(output[-1])
    summary = output[-2]
    assert report["exit"] == 0, "\n".join(output[-60:])
    assert report["python"].startswith("3.13") and report["numpy"] == "2.2.5"
    assert report["engine"].endswith("site-packages/engine/__init__.pyc"), "the engine came from its compiled wheel"
    counts = dict((word, int(n)) for n, word in re.findall(r"(\d+) (\w+)", summary))
    assert counts.get("passed") == cpython_count(modules), summary
    assert set(counts) == {"passed"}, f"nothing may fail, error or be skipped inside Pyodide: {summary}"
