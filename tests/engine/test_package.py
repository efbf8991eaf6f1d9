"""The engine must run unchanged in Pyodide: it may import only NumPy and the standard library."""
import ast
import sys
from pathlib import Path

import engine

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
