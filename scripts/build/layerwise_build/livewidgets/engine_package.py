"""The documented package (the plugin's ``package``, here ``engine``) as a Pyodide package: its project's wheel and
the ``pyodide-lock.json`` that names it, made by the ecosystem's tools.

1. ``python -m build`` runs the build backend of the project's own pyproject.toml (an sdist, then the wheel built
   from it, so nothing stale in the work tree slips in): the browser gets exactly what ``pip install`` gets.
2. ``pyodide lockfile add-wheels`` (pyodide-lock) adds that wheel to the runtime's lock file under its
   distribution's name (``layerwise`` for this project, :func:`distribution`), its dependency on NumPy read from the
   wheel's metadata.
3. ``pyodide py-compile`` (pyodide-build) replaces the wheel's sources by bytecode for Pyodide's Python and updates
   the lock's file name and sha256, so the worker does not compile the engine on import.

The wheel of step 1 is kept as it was made, in ``pip/``, for everyone else: the site serves it for ``pip install``
(the pages' notebooks install the engine from it).

The tools need Python >= 3.12 and py-compile writes bytecode for the Python it runs on, so they run in their own
``.venv-pyodide`` made with Pyodide's Python version (``scripts/dev.sh`` creates it). The one step written here is
the rebasing of the runtime's own packages (NumPy) onto the folder or CDN they are served from, since the lock file
lives beside the engine wheel, not beside the runtime. The result is cached by a hash of everything it depends on.
"""
import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

LOCK = "pyodide-lock.json"
TOOLS_VENV = ".venv-pyodide"
PIP_FOLDER = "pip"  # inside the package folder: the pure wheel, as the build backend made it
SITE_WHEELS = "wheels"  # where the site serves that wheel, at a URL that stays put while its version does
# What a cached folder holds, in the cache key: a folder made before the pure wheel was kept is not taken for one.
LAYOUT = b"compiled wheel, lock, pip/pure wheel"
WHEEL_INPUTS = ("pyproject.toml", "README.md")  # besides the package's folder: what the build backend reads


class PackagingError(Exception):
    pass


def lock_python(lock_path):
    """The Python minor version a lock file is for, such as "3.13"."""
    return ".".join(json.loads(Path(lock_path).read_text())["info"]["python"].split(".")[:2])


def tools_python(root, minor):
    """The interpreter of ``root/.venv-pyodide``, checked to be Python ``minor``."""
    python = Path(root) / TOOLS_VENV / "bin" / "python"
    setup = "`bash scripts/dev.sh serve` or `bash scripts/dev.sh test` creates it"
    if not python.is_file():
        raise PackagingError(f"{TOOLS_VENV} is missing: the engine is packaged for Pyodide by pyodide-build, which "
                             f"runs in that virtual environment with Python {minor}; {setup}")
    found = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                           capture_output=True, text=True).stdout.strip()
    if found != minor:
        raise PackagingError(f"{TOOLS_VENV} runs Python {found}, but Pyodide runs {minor} (its bytecode must "
                             f"match): delete {TOOLS_VENV}; {setup}")
    return python


def source_digest(root, package, salt=b""):
    """A hash of ``salt``, the files of the package folder ``package`` (``engine``) and the other build inputs that
    exist (a project may have no README): what every cache of the package keys on."""
    root = Path(root)
    paths = [root / name for name in WHEEL_INPUTS if (root / name).is_file()] + sorted(
        p for p in (root / package).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    digest = hashlib.sha256(salt)
    for path in paths:
        digest.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(root, package, base_lock, runtime_url):
    """A hash of the package's files, the build inputs, the runtime's lock file and where the runtime is served."""
    return source_digest(root, package, LAYOUT + b"\0" + runtime_url.encode() + b"\0" + Path(base_lock).read_bytes())


def rebased(lock, runtime_url):
    """``lock`` with every package's relative ``file_name`` prefixed by ``runtime_url`` (a URL or a path relative
    to the new lock file's folder, ending in "/"), so Pyodide fetches the runtime's packages from where they are."""
    for package in lock["packages"].values():
        if not ("://" in package["file_name"] or package["file_name"].startswith("/")):
            package["file_name"] = runtime_url + package["file_name"]
    return lock


def build(root, package, base_lock, runtime_url, cache_dir):
    """Return ``(folder, key)``: a folder holding the compiled wheel of the project at ``root`` and
    ``pyodide-lock.json`` (the runtime's lock rebased onto ``runtime_url``, plus that wheel), and the pure wheel in
    ``pip/`` (:func:`pure_wheel`), built only when :func:`cache_key` changed; the wheel must hold the package folder
    ``package`` (``engine``), which the browser imports."""
    key = cache_key(root, package, base_lock, runtime_url)
    target = Path(cache_dir) / key
    if (target / LOCK).is_file():
        return target, key
    python = tools_python(root, lock_python(base_lock))
    pyodide = str(python.parent / "pyodide")
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".building-") as work:
        dists, out = Path(work) / "dists", Path(work) / "out"
        _run([str(python), "-m", "build", "--no-isolation", "--outdir", str(dists), str(root)], root)
        out.mkdir()
        wheel = shutil.move(next(dists.glob("*.whl")), out)
        _check_holds(wheel, root, package)
        pure = Path(work) / PIP_FOLDER  # beside `out` while py-compile rewrites the wheels in it
        pure.mkdir()
        shutil.copy2(wheel, pure)
        (out / LOCK).write_text(json.dumps(rebased(json.loads(Path(base_lock).read_text()), runtime_url)))
        _run([pyodide, "lockfile", "add-wheels", "--input", str(out / LOCK), "--output", str(out / LOCK), wheel], root)
        _run([pyodide, "py-compile", "--silent", "--no-keep", str(out)], root)
        pure.rename(out / PIP_FOLDER)
        try:
            out.rename(target)  # atomic: a concurrent build never sees half a folder
        except OSError:  # another build finished the same key first
            if not (target / LOCK).is_file():
                raise
    return target, key


def _check_holds(wheel, root, package):
    """Fail unless the wheel has the package's ``__init__.py``: a pyproject.toml that packs other folders would
    give the browser a wheel without the modules its workers import."""
    name = Path(package).name
    with zipfile.ZipFile(wheel) as archive:
        if f"{name}/__init__.py" not in archive.namelist():
            raise PackagingError(f"the wheel {Path(wheel).name} built from {Path(root) / 'pyproject.toml'} "
                                 f"holds no {name}/__init__.py: the option 'package' names a folder the wheel must "
                                 f"pack (see its build backend's package list)")


def pure_wheel(folder):
    """The wheel the build backend made (``layerwise-<version>-py3-none-any.whl``): what ``pip install .`` gets."""
    return next((Path(folder) / PIP_FOLDER).glob("*.whl"))


def distribution(folder):
    """The name the lock file gives the project's wheel (``layerwise``): what the workers' loadPackage asks for."""
    compiled = next(Path(folder).glob("*.whl")).name
    packages = json.loads((Path(folder) / LOCK).read_text())["packages"]
    return next(name for name, entry in packages.items() if entry["file_name"] == compiled)


def engine_entry(folder):
    """The lock file's entry for the project's wheel (``file_name``, ``depends``, ``sha256``, ...)."""
    return json.loads((Path(folder) / LOCK).read_text())["packages"][distribution(folder)]


def _run(command, root):
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        output = (done.stderr.strip() or done.stdout.strip())[-2000:]
        raise PackagingError(f"packaging the engine failed: {' '.join(map(str, command))}\n{output}")
