"""Package ``engine/`` as a pure-Python wheel for the Pyodide worker, cached by a hash of its files.

Written directly with ``zipfile`` (the format is a zip with a ``.dist-info`` folder) so a site build needs no
network and no build backend; ``mkdocs serve`` rebuilds reuse the cached wheel until a file under engine/ changes.
"""
import base64
import hashlib
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


def build_wheel(package_dir, cache_dir):
    """Return ``(path, hash)`` of the engine wheel, building it only when the sources changed."""
    tag = source_hash(package_dir)
    target = Path(cache_dir) / tag / WHEEL_NAME
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        _write_wheel(Path(package_dir), partial)
        partial.replace(target)  # atomic: a concurrent build never sees half a wheel
    return target, tag


def _write_wheel(package_dir, target):
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
        add(archive, f"{dist_info}/METADATA",
            f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {VERSION}\nRequires-Dist: numpy\n".encode())
        add(archive, f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: layerwise-site-build\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        add(archive, f"{dist_info}/top_level.txt", f"{package_dir.name}\n".encode())
        records.append(f"{dist_info}/RECORD,,")
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", FIXED_TIME)
        archive.writestr(info, "\n".join(records) + "\n")
