"""The same engine inside Pyodide (Python 3.13, WebAssembly NumPy), driven by Node: the whole model's gradients
still agree with finite differences, and the package imports cleanly there."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYODIDE_DIST = os.environ.get("PYODIDE_DIST")
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(not PYODIDE_DIST, reason="PYODIDE_DIST is not set: the engine was not run inside Pyodide"),
    pytest.mark.skipif(NODE is None, reason="node is not installed: the engine was not run inside Pyodide"),
]

PYTHON_CHECK = """
import json, sys
import numpy as np
import engine
from engine import model
from engine.config import GPTConfig
from engine.gradcheck import check_gradients
config = GPTConfig(vocab_size=5, seq_len=4, emb_dim=4, num_heads=2, ff_dim=6, num_layers=1, norm="rmsnorm")
rng = np.random.default_rng(0)
params = {k: v + 0.3 * rng.standard_normal(v.shape) for k, v in model.init_params(config).items()}
ids, targets = np.array([[1, 2, 3, 4]]), np.array([[2, 3, 4, 0]])
loss, grads = model.loss_and_grads(params, ids, targets, config)
grads.pop("b0.bk")  # exactly zero; checked in absolute terms by the CPython tests
errors = check_gradients(lambda: model.evaluate_loss(params, ids, targets, config), params, grads)
json.dumps({"python": sys.version.split()[0], "loss": loss, "worst": max(errors.values())})
"""

NODE_SCRIPT = """
import { loadPyodide } from %(module)s;
import fs from "node:fs";
import path from "node:path";
const py = await loadPyodide({ indexURL: %(dist)s });
await py.loadPackage("numpy", { messageCallback: () => {} });
function copy(dir, dest) {
  py.FS.mkdirTree(dest);
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) { if (name !== "__pycache__") copy(full, dest + "/" + name); }
    else py.FS.writeFile(dest + "/" + name, fs.readFileSync(full));
  }
}
copy(%(engine)s, "/home/pyodide/engine");
console.log(py.runPython(%(code)s));
"""


def test_full_model_gradients_inside_pyodide(tmp_path):
    script = tmp_path / "check.mjs"
    script.write_text(NODE_SCRIPT % {
        "module": json.dumps(str(ROOT / "node_modules" / "pyodide" / "pyodide.mjs")),
        "dist": json.dumps(str(Path(PYODIDE_DIST).resolve()) + "/"),
        "engine": json.dumps(str(ROOT / "engine")),
        "code": json.dumps(PYTHON_CHECK),
    })
    result = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["python"].startswith("3.13")
    assert report["worst"] < 1e-6
