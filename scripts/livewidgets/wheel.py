"""Package ``engine/`` as a pure-Python wheel for the Pyodide worker, cached by a hash of its files.

Written directly with ``zipfile`` (the format is a zip with a ``.dist-info`` folder) so a site build needs no
network and no build backend; ``mkdocs serve`` rebuilds reuse the cached wheel until a file under engine/ changes.

Optionally, when an interpreter of Pyodide's Python minor version is on this machine, the wheel also carries
bytecode (``__pycache__/*.cpython-3XX.pyc``, unchecked-hash so unpacking times do not invalidate it): the worker
then skips compiling the engine. Without one the wheel is sources only and works the same, a little slower to import.
"""
import base64
import hashlib
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

DIST_NAME = "layerwise"
VERSION = "0.1.0"
WHEEL_NAME = f"{DIST_NAME}-{VERSION}-py3-none-any.whl"
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same sources always give the same bytes


def engine_files(package_dir):
    """Every file the engine needs at run time: sources and package data, no caches."""
    return sorted(p for p in Path(package_dir).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix not in {".pyc", ".pyo"})


def source_hash(package_dir):
    digest = hashlib.sha256()
    root = Path(package_dir).parent
    for path in engine_files(package_dir):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def matching_python(minor, candidate=None):
    """``candidate`` if it runs and is Python ``minor``, else None. Without a candidate: ``python3.13`` (for minor
    "3.13") on PATH, then a pyenv-installed 3.13 (a pyenv shim on PATH fails outside a folder that selects it)."""
    if not minor:
        return None
    if candidate:
        return candidate if _python_minor(candidate) == minor else None
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    pyenv_pythons = sorted(map(str, pyenv_root.glob(f"versions/{minor}.*/bin/python{minor}")))
    found = [shutil.which(f"python{minor}"), *pyenv_pythons]
    return next((python for python in found if python and _python_minor(python) == minor), None)


def _python_minor(python):
    try:
        return subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True,
                              text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


COMPILE = """import importlib.util, os, py_compile, sys
source_root, out = sys.argv[1], sys.argv[2]
for rel in sys.argv[3:]:
    cfile = importlib.util.cache_from_source(os.path.join(out, rel))
    py_compile.compile(os.path.join(source_root, rel), cfile=cfile, dfile=rel, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
"""


def compiled(package_dir, python):
    """{archive name: bytes} of every engine source compiled by ``python``."""
    root = Path(package_dir).parent
    sources = [p.relative_to(root).as_posix() for p in engine_files(package_dir) if p.suffix == ".py"]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([python, "-c", COMPILE, str(root), out, *sources], check=True, capture_output=True, timeout=300)
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(Path(out).rglob("*.pyc"))}


def build_wheel(package_dir, cache_dir, python=None):
    """Return ``(path, hash)`` of the engine wheel, building it only when the sources changed; with ``python``
    (see :func:`matching_python`) it also holds that interpreter's bytecode."""
    tag = source_hash(package_dir) + ("-pyc" if python else "")
    target = Path(cache_dir) / tag / WHEEL_NAME
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        _write_wheel(Path(package_dir), partial, compiled(package_dir, python) if python else {})
        partial.replace(target)  # atomic: a concurrent build never sees half a wheel
    return target, tag


def _write_wheel(package_dir, target, bytecode):
    root = package_dir.parent
    dist_info = f"{DIST_NAME}-{VERSION}.dist-info"
    records = []

    def add(archive, name, data):
        info = zipfile.ZipInfo(name, FIXED_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        archive.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        records.append(f"{name},sha256={digest},{len(data)}")

    with zipfile.ZipFile(target, "w") as archive:
        for path in engine_files(package_dir):
            add(archive, path.relative_to(root).as_posix(), path.read_bytes())
        for name, data in bytecode.items():
            add(archive, name, data)
        add(archive, f"{dist_info}/METADATA",
            f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {VERSION}\nRequires-Dist: numpy\n".encode())
        add(archive, f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: layerwise-site-build\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        add(archive, f"{dist_info}/top_level.txt", f"{package_dir.name}\n".encode())
        records.append(f"{dist_info}/RECORD,,")
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", FIXED_TIME)
        archive.writestr(info, "\n".join(records) + "\n")
