"""A memory snapshot of Pyodide's interpreter, made at build time so that a worker restores CPython instead of
starting it.

Starting CPython is most of a worker's start (~1.4 s of ~2.4 s in Chromium here); restoring a snapshot of its memory
takes ~0.3 s. Pyodide makes and restores such snapshots itself (``loadPyodide({_makeSnapshot})``,
``pyodide.makeMemorySnapshot()``, ``loadPyodide({_loadSnapshot})``), and refuses one made by another build of its
runtime (the snapshot carries the build's id; the worker then starts CPython as before). Only the interpreter and
pure-Python modules can be in it: NumPy's compiled libraries are loaded after the restore, as before.

The snapshot is made under Node with the pinned npm core, the same build as the CDN's and as a self-hosted copy of
that version (pyodide_dist checks the version). It holds the interpreter's whole memory (20 MB, ~5.7 MB gzipped); the
site serves it gzipped as a file of its own, so every host sends the compressed bytes, and the worker inflates it.
"""
import gzip
import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

# Imported before the snapshot is made, so they are not imported again at every start: what loadPackage and NumPy's
# import bring in (measured in a plain start: sys.modules before and after), and json. No more: the snapshot is the
# interpreter's whole memory, and the engine's other standard modules would grow it from 20 to 24 MB, which the
# worker then holds resident from its start (renderer RSS +14 MB) to save ~0.1 s. ctypes stays out too: NumPy loads
# it, and its libffi state is not the interpreter's to snapshot.
PRELOADED = ("__future__", "email", "importlib.metadata", "tarfile", "pickle", "datetime", "numbers", "platform",
             "json")
RUNTIME_INPUTS = ("pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")  # what the snapshot depends on

NODE_SCRIPT = """
import { loadPyodide } from %(module)s;
import fs from "node:fs";
const pyodide = await loadPyodide({ indexURL: %(runtime)s, _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
pyodide.runPython(%(code)s);
fs.writeFileSync(%(out)s, pyodide.makeMemorySnapshot());
"""


class SnapshotError(Exception):
    pass


def cache_key(runtime):
    """A hash of the runtime's files the snapshot depends on, the modules put in it and how it is made."""
    digest = hashlib.sha256(NODE_SCRIPT.encode() + b"\0" + " ".join(PRELOADED).encode() + b"\0script on stdin")
    for name in RUNTIME_INPUTS:
        digest.update(b"\0" + (Path(runtime) / name).read_bytes())
    return digest.hexdigest()[:16]


def build(root, runtime, cache_dir):
    """The gzipped snapshot for the Pyodide distribution in ``runtime`` (a folder), made with ``root``'s npm loader
    unless the cache holds it; returns its path, named by :func:`cache_key`."""
    target = Path(cache_dir) / f"pyodide-{cache_key(runtime)}.snapshot.gz"
    if target.is_file():
        return target
    node = shutil.which("node")
    if node is None:
        raise SnapshotError("node is not installed: the build makes Pyodide's memory snapshot with it "
                            "(scripts/dev.sh installs it)")
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".building-") as work:
        raw = Path(work) / "snapshot.bin"
        script = NODE_SCRIPT % {
            "module": json.dumps(str(Path(root) / "node_modules" / "pyodide" / "pyodide.mjs")),
            "runtime": json.dumps(str(Path(runtime).resolve()) + "/"),
            "code": json.dumps("import " + ", ".join(PRELOADED)),
            "out": json.dumps(str(raw)),
        }
        # On stdin, not from a file: the interpreter records the script's path as its program (the environment's
        # `_`, kept in the snapshot every reader downloads), and a file's path is the build's checkout.
        made = subprocess.run([node, "--input-type=module"], input=script, capture_output=True, text=True,
                              timeout=300)
        if made.returncode != 0:
            raise SnapshotError(f"Pyodide's memory snapshot could not be made:\n{made.stderr.strip()}")
        part = Path(work) / target.name
        part.write_bytes(gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0))
        part.replace(target)
    return target
