"""Collect half, second step: resolve every equation fence of every page against the code index.

An equation names a helper (`code=`), the lines inside it (`select=`) and an expression shape (`pattern=`).
From those the index gives four roles of rows: Computes it, Written inline, Calls it, Tests it.
Problems are collected as `BuildProblem`s naming page, equation and symbol, never raised half-way.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .codeindex import CodeIndex
from .fences import scan
from .pattern import PatternError, compile_pattern, find_matches
from .project import Project
from .selectors import SelectorError, select_lines

ROLES = ("Computes it", "Written inline", "Calls it", "Tests it")


@dataclass(frozen=True)
class BuildProblem:
    page: str
    message: str
    equation: str | None = None
    symbol: str | None = None

    def __str__(self) -> str:
        where = [f"page '{self.page}'"]
        if self.equation:
            where.append(f"equation '{self.equation}'")
        if self.symbol:
            where.append(f"symbol '{self.symbol}'")
        return f"{', '.join(where)}: {self.message}"


@dataclass(frozen=True)
class Row:
    role: str
    path: str
    lineno: int
    end_lineno: int
    function: str  # dotted name of the enclosing function
    code: str  # the first line of the statement, stripped
    via: str | None = None  # the table a "Calls it"/"Tests it" row reaches the helper through


@dataclass
class Equation:
    anchor: str  # eq-linear-forward
    title: str
    page: str  # docs-relative Markdown path
    code: str | None
    select: str | None
    pattern: str | None
    derived: bool
    codemath_group: int  # index of the ```codemath fence below it on its page
    rows: list[Row] = field(default_factory=list)

    def rows_for(self, role: str) -> list[Row]:
        return [r for r in self.rows if r.role == role]


def anchor_of(equation_id: str) -> str:
    return equation_id if equation_id.startswith("eq-") else f"eq-{equation_id}"


def _row(index: CodeIndex, role: str, path: str, lineno: int, end_lineno: int, via: str | None = None) -> Row:
    function = index.files[path].enclosing_function(lineno)
    return Row(role, path, lineno, end_lineno, function, index.line(path, lineno).strip(), via)


# (file digest, pattern text) -> [(lineno, end_lineno)]: a file that did not change is not searched again.
_MATCHES: dict[tuple[str, str], list[tuple[int, int]]] = {}


def _matched_lines(file, text: str, pattern) -> list[tuple[int, int]]:
    key = (file.digest, text)
    if key not in _MATCHES:
        _MATCHES[key] = [(n.lineno, n.end_lineno) for n in find_matches(pattern, file.tree)]
    return _MATCHES[key]


def resolve(equation: Equation, index: CodeIndex, project: Project) -> list[BuildProblem]:
    """Fill `equation.rows`; return the problems found (an empty list when everything resolves)."""
    def problem(message, symbol=equation.code):
        return BuildProblem(equation.page, message, equation.anchor, symbol)

    if not equation.code:
        return [problem('has no code link: add code="<package.module.function>" to the fence', None)]
    function = index.function(equation.code)
    if function is None:
        return [problem(f"no function of that name in {project.package}/ (renamed or moved?)")]
    file = index.files[function.path]
    try:
        spans = select_lines(equation.select, function, file)
    except SelectorError as error:
        return [problem(str(error))]
    rows = [_row(index, "Computes it", function.path, a, b) for a, b in spans]
    own_lines = set(range(function.lineno, function.end_lineno + 1))
    if equation.pattern:
        try:
            pattern = compile_pattern(equation.pattern)
        except PatternError as error:
            return [problem(str(error))]
        inline = {}
        for path, fi in index.files.items():
            if not project.is_model_code(path):
                continue
            for lineno, end_lineno in _matched_lines(fi, equation.pattern, pattern):
                if path == function.path and lineno in own_lines:
                    continue
                inline.setdefault((path, lineno), end_lineno)
        rows += [_row(index, "Written inline", p, a, b) for (p, a), b in sorted(inline.items())]
    for role, where in (("Calls it", project.is_model_code), ("Tests it", project.is_test)):
        rows += [_row(index, role, c.path, c.lineno, c.end_lineno, c.via)
                 for c in index.call_sites(equation.code, where)]
    equation.rows = rows
    return []


def collect_page(page: str, markdown: str) -> tuple[list[Equation], list[BuildProblem]]:
    """The equation fences of one page, grouped by the ```codemath fence that follows each."""
    equations, problems, group = [], [], 0
    for fence in scan(markdown):
        if fence.name == "codemath":
            group += 1
        elif fence.name == "equation":
            attrs = fence.attrs
            if not attrs.get("id"):
                problems.append(BuildProblem(page, f"equation fence on line {fence.lineno} has no id=", None, attrs.get("code")))
                continue
            equations.append(Equation(
                anchor=anchor_of(attrs["id"]), title=attrs.get("title", ""), page=page, code=attrs.get("code"),
                select=attrs.get("select"), pattern=attrs.get("pattern"),
                derived=attrs.get("derived", "false").lower() == "true", codemath_group=group,
            ))
    return equations, problems


@dataclass
class EquationCatalog:
    """Every equation of the site, by page and anchor, resolved; plus what went wrong."""

    equations: list[Equation]
    problems: list[BuildProblem]

    def on_page(self, page: str) -> list[Equation]:
        return [e for e in self.equations if e.page == page]

    def find(self, page: str, anchor: str) -> Equation | None:
        return next((e for e in self.equations if e.page == page and e.anchor == anchor), None)

    def implementing_lines(self, path: str) -> dict[int, list[Equation]]:
        """line -> equations it computes or writes inline: the back-links of a source page."""
        lines: dict[int, list[Equation]] = {}
        for equation in self.equations:
            for row in equation.rows:
                if row.path == path and row.role in ("Computes it", "Written inline"):
                    for lineno in range(row.lineno, row.end_lineno + 1):
                        if equation not in lines.setdefault(lineno, []):
                            lines[lineno].append(equation)
        return lines


def build_catalog(pages: dict[str, str], index: CodeIndex, project: Project) -> EquationCatalog:
    """Resolve the equations of `pages` (docs-relative path -> Markdown); ids must be unique across the site."""
    equations, problems, seen = [], [], {}
    for page, markdown in sorted(pages.items()):
        found, page_problems = collect_page(page, markdown)
        problems += page_problems
        for equation in found:
            if equation.anchor in seen:
                problems.append(BuildProblem(page, f"id is already used on page '{seen[equation.anchor]}'", equation.anchor, equation.code))
                continue
            seen[equation.anchor] = page
            problems += resolve(equation, index, project)
            equations.append(equation)
    return EquationCatalog(equations, problems)
