"""Run Python code inside Pyodide under Node, with this checkout's ``engine/`` on its path (live tests, benchmarks).

The engine's files are written into Pyodide's file system from a JSON bundle, so no wheel is built; NumPy comes from
``PYODIDE_DIST`` (a folder holding Pyodide's distribution) and the loader from ``node_modules/pyodide``.
"""
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NODE_SCRIPT = """
import { loadPyodide } from %(module)s;
import fs from "node:fs";
const py = await loadPyodide({ indexURL: %(dist)s });
await py.loadPackage("numpy", { messageCallback: () => {} });
const sources = JSON.parse(fs.readFileSync(%(files)s, "utf8"));
for (const [name, text] of Object.entries(sources)) {
  py.FS.mkdirTree("/home/pyodide/" + name.split("/").slice(0, -1).join("/"));
  py.FS.writeFile("/home/pyodide/" + name, text);
}
console.log(py.runPython(%(code)s));
"""


def run_in_pyodide(code, pyodide_dist, timeout=600):
    """The value of ``code``'s last expression (a string, e.g. ``json.dumps(...)``) as Pyodide's Python printed it."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    with tempfile.TemporaryDirectory() as folder:
        files = Path(folder) / "engine.json"
        files.write_text(json.dumps({path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
                                     for path in (ROOT / "engine").rglob("*") if path.suffix in (".py", ".txt")}))
        script = Path(folder) / "run.mjs"
        script.write_text(NODE_SCRIPT % {
            "module": json.dumps(str(ROOT / "node_modules" / "pyodide" / "pyodide.mjs")),
            "dist": json.dumps(str(Path(pyodide_dist).resolve()) + "/"),
            "files": json.dumps(str(files)),
            "code": json.dumps(code),
        })
        result = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"Pyodide run failed:\n{result.stderr}")
    return result.stdout.strip().splitlines()[-1]
