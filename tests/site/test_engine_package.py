"""The engine as a Pyodide package: the wheel comes from the project's own build backend, is compiled for Pyodide's
Python, and the site's pyodide-lock.json names it ``layerwise`` depending on NumPy (layerwise_build/livewidgets/
engine_package.py). That Pyodide really loads it by name is proven by tests/engine/test_pyodide.py and the live
browser tests."""
import hashlib
import json
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from layerwise_build.livewidgets import engine_package

ROOT = Path(__file__).resolve().parents[2]

NPM_LOCK = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"
RUNTIME_URL = "../../../pyodide/"
# importlib.util.MAGIC_NUMBER of CPython 3.13 (magic 3571; Pyodide 0.29.5 runs Python 3.13.2).
PYTHON_313_MAGIC = (3571).to_bytes(2, "little") + b"\r\n"


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    folder, key = engine_package.build(ROOT, "engine", NPM_LOCK, RUNTIME_URL, tmp_path_factory.mktemp("engine-cache"))
    return folder


def test_the_lock_names_the_engine_as_layerwise_depending_on_numpy(package):
    lock = json.loads((package / "pyodide-lock.json").read_text())
    entry = lock["packages"]["layerwise"]
    wheel = package / entry["file_name"]
    assert sorted(p.name for p in package.iterdir()) == sorted(["pyodide-lock.json", wheel.name, "pip"])
    assert wheel.name == "layerwise-0.1.0-cp313-none-any.whl"  # py-compile's tag: bytecode for CPython 3.13
    assert entry["depends"] == ["numpy"] and entry["imports"] == ["engine"] and entry["version"] == "0.1.0"
    assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    # The runtime's own packages are kept, each pointed at where the runtime is served from.
    base = json.loads(NPM_LOCK.read_text())
    assert lock["info"] == base["info"]
    assert set(lock["packages"]) == set(base["packages"]) | {"layerwise"}
    assert lock["packages"]["numpy"]["file_name"] == RUNTIME_URL + base["packages"]["numpy"]["file_name"]
    assert lock["packages"]["numpy"]["sha256"] == base["packages"]["numpy"]["sha256"]


def test_the_wheel_is_what_the_build_backend_makes_compiled_for_pyodides_python(package):
    wheel = next(package.glob("*.whl"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = Parser().parsestr(archive.read("layerwise-0.1.0.dist-info/METADATA").decode())
        generator = archive.read("layerwise-0.1.0.dist-info/WHEEL").decode()
        bytecode = {name: archive.read(name)[:4] for name in names if name.endswith(".pyc")}
    assert metadata["Name"] == project["name"] and metadata["Version"] == project["version"]
    assert [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r] == project["dependencies"]
    assert "Generator: setuptools" in generator
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py")}
    assert set(bytecode) == {name + "c" for name in sources}, "one .pyc per engine module, in place of its source"
    assert not any(name.endswith(".py") for name in names)
    assert set(bytecode.values()) == {PYTHON_313_MAGIC}
    assert "engine/data/moby-dick.txt" in names  # package data, as pyproject.toml declares it


def test_the_pure_wheel_is_kept_as_the_build_backend_made_it(package):
    wheel = engine_package.pure_wheel(package)
    assert [p.name for p in (package / "pip").iterdir()] == [wheel.name] == ["layerwise-0.1.0-py3-none-any.whl"]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        generator = archive.read("layerwise-0.1.0.dist-info/WHEEL").decode()
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py")}
    assert sources <= names and not any(name.endswith(".pyc") for name in names)
    assert "Root-Is-Purelib: true" in generator and "Tag: py3-none-any" in generator


def test_a_second_build_reuses_the_cached_package(package, monkeypatch):
    def no_tools(command, root):
        raise AssertionError(f"ran {command} although nothing changed")

    monkeypatch.setattr(engine_package, "_run", no_tools)
    again, key = engine_package.build(ROOT, "engine", NPM_LOCK, RUNTIME_URL, package.parent)
    assert again == package and key == package.name


def test_the_cache_key_follows_every_input(tmp_path):
    (tmp_path / "engine").mkdir()
    for name, text in {"pyproject.toml": "", "README.md": "", "engine/__init__.py": "A = 1\n"}.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "base-lock.json").write_text("{}")
    (tmp_path / "other-lock.json").write_text('{"packages": {}}')
    key = engine_package.cache_key(tmp_path, "engine", tmp_path / "base-lock.json", "../pyodide/")
    (tmp_path / "engine" / "__pycache__").mkdir()
    (tmp_path / "engine" / "__pycache__" / "x.pyc").write_bytes(b"stale")
    assert engine_package.cache_key(tmp_path, "engine", tmp_path / "base-lock.json", "../pyodide/") == key
    changed = [engine_package.cache_key(tmp_path, "engine", tmp_path / "other-lock.json", "../pyodide/"),
               engine_package.cache_key(tmp_path, "engine", tmp_path / "base-lock.json", "https://cdn.example/")]
    (tmp_path / "README.md").write_text("the wheel's long description\n")
    changed.append(engine_package.cache_key(tmp_path, "engine", tmp_path / "base-lock.json", "../pyodide/"))
    (tmp_path / "engine" / "__init__.py").write_text("A = 2\n")
    changed.append(engine_package.cache_key(tmp_path, "engine", tmp_path / "base-lock.json", "../pyodide/"))
    assert len({key, *changed}) == 5


def test_rebasing_prefixes_relative_file_names_only():
    lock = {"packages": {"a": {"file_name": "a.whl"}, "b": {"file_name": "https://elsewhere/b.whl"},
                         "c": {"file_name": "/abs/c.whl"}}}
    names = [p["file_name"] for p in engine_package.rebased(lock, "../pyodide/")["packages"].values()]
    assert names == ["../pyodide/a.whl", "https://elsewhere/b.whl", "/abs/c.whl"]


def test_missing_or_wrong_tools_are_named_with_the_fix(tmp_path):
    with pytest.raises(engine_package.PackagingError, match=r"\.venv-pyodide is missing: .* with Python 3\.13; "
                                                            r"`bash scripts/dev.sh serve`"):
        engine_package.tools_python(tmp_path, "3.13")
    (tmp_path / ".venv-pyodide" / "bin").mkdir(parents=True)
    (tmp_path / ".venv-pyodide" / "bin" / "python").symlink_to(sys.executable)
    this = "%d.%d" % sys.version_info[:2]
    with pytest.raises(engine_package.PackagingError, match=f"runs Python {this}, but Pyodide runs 2.7 .*: delete "):
        engine_package.tools_python(tmp_path, "2.7")
    with pytest.raises(engine_package.PackagingError, match="packaging the engine failed: .* -c raise SystemExit"):
        engine_package._run([sys.executable, "-c", "raise SystemExit('no')"], tmp_path)
