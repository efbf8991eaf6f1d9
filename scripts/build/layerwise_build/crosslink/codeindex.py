"""Collect half of the cross-linker: every function of a package and its tests, with lines and calls, from `ast`.

A use of a function is a call by name, or a reference to it as a value: passed to another function
(`check_layer(norms.rmsnorm_forward, ...)`), or put in a module-level table (`ACTIVATIONS = {"relu": (relu_forward,
relu_backward)}`), in which case each use of the table is a use of the function *via* the table (a use that
unpacks a tuple entry, `act_forward, _ = ACTIVATIONS[name]`, only of the functions at the places it keeps).

Each file is parsed once per content hash: the cache lives at module level, so `mkdocs serve` rebuilds (which
make the plugin's parts afresh but not this package) re-parse only the files that changed.
"""
from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class CallSite:
    callee: str  # dotted name the call resolves to, e.g. engine.linear.linear_forward
    path: str  # file path relative to the project root, e.g. engine/model.py
    lineno: int
    end_lineno: int
    caller: str  # dotted name of the enclosing function, or of the module for top-level code
    via: str | None = None  # the module-level table the function was reached through: engine.activations.ACTIVATIONS


@dataclass(frozen=True)
class Reference:
    """A name used as a value (not called): a function passed on, or a table of functions looked up."""

    target: str  # dotted name it resolves to
    path: str
    lineno: int
    end_lineno: int
    caller: str
    table: str | None  # the module-level name being assigned when the reference sits in its value, else None
    # In a table: the function's place in a tuple entry, `(relu_forward, relu_backward)` -> 0 and 1. In a use of a
    # table: the places unpacked, `act_forward, _ = ACTIVATIONS[name]` -> {0}. None when it is neither.
    places: frozenset[int] | None = None


@dataclass(frozen=True)
class FunctionInfo:
    qualname: str  # engine.norms.layernorm_forward; methods as engine.module.Class.method
    path: str
    lineno: int  # the `def` line
    end_lineno: int
    node: ast.AST = field(compare=False, repr=False)


@dataclass
class FileIndex:
    path: str
    module: str
    lines: list[str]  # source lines without line endings; lines[0] is line 1
    tree: ast.Module
    functions: list[FunctionInfo]
    calls: list[CallSite]
    references: list[Reference]
    aliases: dict[str, str]  # module-level names bound by imports: engine.relu -> engine.activations.relu
    digest: str  # sha256 of the content: the cache key of everything derived from this file

    def enclosing_function(self, lineno: int) -> str:
        """The innermost function whose lines contain `lineno`, else the module itself."""
        best = None
        for info in self.functions:
            if info.lineno <= lineno <= info.end_lineno and (best is None or info.lineno >= best.lineno):
                best = info
        return best.qualname if best else self.module


# (absolute path, sha256 of content) -> FileIndex; shared by every build of this process.
_CACHE: dict[tuple[str, str], FileIndex] = {}


def module_name(rel_path: str) -> str:
    parts = rel_path[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _import_bindings(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Names bound by import statements anywhere in the file -> the dotted name they stand for."""
    package = module if is_package else module.rpartition(".")[0]
    bindings: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bindings[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    bindings[head] = head
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                bindings[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    return bindings


def _dotted(node: ast.AST) -> list[str] | None:
    """`a.b.c` -> ["a", "b", "c"]; None for anything that is not a plain name chain."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


class _Collector(ast.NodeVisitor):
    """Walks one module, recording functions (with qualified names), the call sites inside each, and the names
    used as values (references)."""

    def __init__(self, path: str, module: str, bindings: dict[str, str], local_defs: set[str]):
        self.path, self.module, self.bindings, self.local_defs = path, module, bindings, local_defs
        self.scope: list[str] = []
        self.functions: list[FunctionInfo] = []
        self.calls: list[CallSite] = []
        self.references: list[Reference] = []
        self.table: str | None = None  # set while visiting the value of a module-level `NAME = ...`
        self.places: frozenset[int] | None = None  # see Reference.places

    def _resolve(self, parts: list[str]) -> str | None:
        head, rest = parts[0], parts[1:]
        if head in self.bindings:
            return ".".join([self.bindings[head], *rest])
        if head in self.local_defs:
            return ".".join([self.module, *parts])
        return None  # builtins, locals, attributes of values

    def _caller(self) -> str:
        return ".".join([self.module, *self.scope]) if self.scope else self.module

    def _reference(self, node, parts: list[str]):
        target = self._resolve(parts)
        if target:
            self.references.append(Reference(target, self.path, node.lineno, node.end_lineno, self._caller(),
                                             self.table, self.places))

    def _enter(self, node, is_function: bool):
        self.scope.append(node.name)
        if is_function:
            qualname = ".".join([self.module, *self.scope])
            self.functions.append(FunctionInfo(qualname, self.path, node.lineno, node.end_lineno, node))
        self.generic_visit(node)
        self.scope.pop()

    def visit_FunctionDef(self, node):
        self._enter(node, True)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._enter(node, False)

    def visit_Assign(self, node):
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        if not self.scope and len(names) == len(node.targets):
            self.table = ".".join([self.module, names[0]])
            self.visit(node.value)
            self.table = None
            return
        target, value = node.targets[0], node.value
        if len(node.targets) == 1 and isinstance(target, ast.Tuple) and isinstance(value, ast.Subscript):
            # `act_forward, _ = ACTIVATIONS[name]`: only the places not thrown away into `_` are used
            self.places = frozenset(i for i, t in enumerate(target.elts) if not (isinstance(t, ast.Name) and t.id == "_"))
            self.visit(value.value)
            self.places = None
            self.visit(value.slice)
            return
        self.generic_visit(node)

    def visit_Tuple(self, node):
        if self.table is None:
            self.generic_visit(node)
            return
        for place, element in enumerate(node.elts):  # an entry of a table: remember each function's place
            self.places = frozenset({place})
            self.visit(element)
        self.places = None

    def visit_Call(self, node):
        parts = _dotted(node.func)
        if parts:
            target = self._resolve(parts)
            if target:
                self.calls.append(CallSite(target, self.path, node.lineno, node.end_lineno, self._caller()))
        else:
            self.visit(node.func)  # `ACTIVATIONS[name](x)`: the table is used
        for argument in [*node.args, *node.keywords]:
            self.visit(argument)

    def visit_Attribute(self, node):
        parts = _dotted(node)
        if parts and isinstance(node.ctx, ast.Load):
            self._reference(node, parts)  # the whole chain: `norms.rmsnorm_forward`, not `norms` on its own
        else:
            self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self._reference(node, [node.id])


def parse_file(root: Path, rel_path: str) -> tuple[FileIndex, bool]:
    """Index one file; returns (index, whether it had to be parsed rather than taken from the cache)."""
    absolute = root / rel_path
    data = absolute.read_bytes()
    key = (str(absolute), hashlib.sha256(data).hexdigest())
    if key in _CACHE:
        return _CACHE[key], False
    text = data.decode("utf-8")
    tree = ast.parse(text, filename=rel_path)
    module = module_name(rel_path)
    bindings = _import_bindings(tree, module, rel_path.endswith("__init__.py"))
    local_defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    local_defs |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    collector = _Collector(rel_path, module, bindings, local_defs)
    collector.visit(tree)
    aliases = {f"{module}.{name}": target for name, target in bindings.items()}
    index = FileIndex(rel_path, module, text.splitlines(), tree, collector.functions, collector.calls,
                      collector.references, aliases, key[1])
    _CACHE[key] = index
    return index, True


@dataclass
class CodeIndex:
    """The whole project's index: functions by dotted name, call sites by callee, files by path."""

    files: dict[str, FileIndex]
    parsed: list[str]  # paths parsed in this build (the rest came from the cache)

    def __post_init__(self):
        self.functions = {f.qualname: f for fi in self.files.values() for f in fi.functions}
        aliases = {k: v for fi in self.files.values() for k, v in fi.aliases.items()}
        self._callers: dict[str, list[CallSite]] = {}
        for fi in self.files.values():
            for call in fi.calls:
                self._callers.setdefault(self._canonical(call.callee, aliases), []).append(call)
        tables: dict[str, dict[str, frozenset[int] | None]] = {}  # table -> {function in it: its places}
        uses: dict[str, list[tuple[CallSite, frozenset[int] | None]]] = {}  # dotted name -> (use, places unpacked)
        for fi in self.files.values():
            for ref in fi.references:
                target = self._canonical(ref.target, aliases)
                if ref.table and target in self.functions:
                    tables.setdefault(ref.table, {})[target] = ref.places
                elif not ref.table:
                    site = CallSite(target, ref.path, ref.lineno, ref.end_lineno, ref.caller)
                    uses.setdefault(target, []).append((site, ref.places))
        for name, sites in uses.items():
            if name in self.functions:  # passed as a value: a use, like a call
                self._callers.setdefault(name, []).extend(site for site, _ in sites)
        for table, functions in tables.items():
            sites = uses.get(table, []) + [(call, None) for call in self._callers.get(table, [])]
            for function, places in functions.items():
                self._callers.setdefault(function, []).extend(
                    CallSite(function, s.path, s.lineno, s.end_lineno, s.caller, via=table) for s, unpacked in sites
                    if places is None or unpacked is None or places & unpacked)

    def _canonical(self, name: str, aliases: dict[str, str]) -> str:
        """Follow re-exports (`from .linear import linear_forward` in a package __init__) to the definition."""
        for _ in range(10):  # re-export chains are short; the bound stops alias cycles
            if name in self.functions:
                return name
            parts = name.split(".")
            for n in range(len(parts), 0, -1):
                prefix = ".".join(parts[:n])
                if prefix in aliases:
                    name = ".".join([aliases[prefix], *parts[n:]])
                    break
            else:
                return name
        return name

    def function(self, qualname: str) -> FunctionInfo | None:
        return self.functions.get(qualname)

    def call_sites(self, qualname: str, where) -> list[CallSite]:
        """Calls of `qualname` made from files for which `where(path)` is true, in file and line order."""
        calls = {(c.path, c.lineno, c.caller, c.via): c for c in self._callers.get(qualname, []) if where(c.path)}
        return sorted(calls.values(), key=lambda c: (c.path, c.lineno, c.via or ""))

    def line(self, path: str, lineno: int) -> str:
        return self.files[path].lines[lineno - 1]


def python_files(root: Path, folders: list[str], exclude: tuple[str, ...] = ()) -> list[str]:
    """Paths (relative to `root`) of every .py file under `folders`, minus those under `exclude`."""
    found = []
    for folder in folders:
        for absolute in sorted((root / folder).rglob("*.py")):
            rel_path = absolute.relative_to(root).as_posix()
            if not any(rel_path.startswith(e.rstrip("/") + "/") for e in exclude):
                found.append(rel_path)
    return found


def build_index(root: Path, folders: list[str], exclude: tuple[str, ...] = ()) -> CodeIndex:
    """Index every .py file under each of `folders` (relative to `root`), reusing cached parses."""
    files, parsed = {}, []
    for rel_path in python_files(root, folders, exclude):
        index, was_parsed = parse_file(root, rel_path)
        files[rel_path] = index
        if was_parsed:
            parsed.append(rel_path)
    return CodeIndex(files, parsed)
