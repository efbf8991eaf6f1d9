"""The engine must run unchanged in Pyodide: it may import only NumPy and the standard library."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.data import load_corpus

ENGINE_DIR = Path(engine.__file__).parent
NOT_IN_A_BROWSER = {"multiprocessing", "threading", "subprocess", "concurrent", "socket"}


def imported_top_level_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0]


def test_engine_imports_only_numpy_and_the_standard_library():
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert len(files) > 15
    for path in files:
        for module in imported_top_level_modules(path):
            assert module == "numpy" or module in sys.stdlib_module_names, f"{path.name} imports {module}"
            assert module not in NOT_IN_A_BROWSER, f"{path.name} imports {module}, which Pyodide cannot run"


def test_every_module_stays_small():
    for path in ENGINE_DIR.glob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) < 300, f"{path.name} holds more than one idea"


def test_module_names_finds_sources_and_bytecode_only_modules(tmp_path):
    # The browser's wheel ships bytecode without sources (pyodide py-compile): a module that is only a .pyc counts.
    for name in ("norms.py", "linear.pyc", "_private.py", "notes.txt", "twice.py", "twice.pyc"):
        (tmp_path / name).write_text("")
    assert engine.module_names(tmp_path) == ["linear", "norms", "twice"]


def test_every_module_and_subpackage_is_reachable_lazily_after_import_engine():
    # a new module needs no registry: `engine.<name>` imports it the first time it is named
    names = engine.module_names(ENGINE_DIR) + ["examples", "exercises"]
    code = ("import sys, engine; before = set(sys.modules); "
            f"mods = [getattr(engine, n) for n in {names!r}]; "
            "assert not any(m.startswith('engine.') for m in before), 'import engine imported modules'; "
            "assert all(m.__name__ == 'engine.' + n for m, n in zip(mods, " + repr(names) + "))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE_DIR.parent)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ["no_such_module", "_private"])
def test_an_unknown_or_private_name_is_an_attribute_error(name):
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(engine, name)


def test_the_corpus_readme_states_the_files_true_size_and_alphabet():
    # here, not beside the data's tests: the README is not in the wheel the Pyodide run of tests/engine installs
    readme = (Path(engine.__file__).parent / "data" / "README.md").read_text(encoding="utf-8")
    text = load_corpus()
    assert f"{len(text):,} characters, {len(set(text))} of them" in readme
    assert text.startswith("CHAPTER 1. Loomings.") and "CHAPTER 28. Ahab." in text and "CHAPTER 29." not in text
    assert {ch for ch in text if not ch.isascii()} == {"—"}  # "The em dash is the only character outside ASCII."
