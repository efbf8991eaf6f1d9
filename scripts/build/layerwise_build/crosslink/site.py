"""One build of the site: collect (index + equation catalog + engine import), then render fences and pages.

A fresh `SiteBuild` is made for every mkdocs build (so nothing leaks between `mkdocs serve` rebuilds); only the
per-file parse cache in `codeindex` outlives it. The mkdocs glue is `parts/site.py`; tests use this class
directly with a plain `markdown.Markdown`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .codeindex import CodeIndex, build_index
from .engine_loader import load_package
from .equations import BuildProblem, EquationCatalog, anchor_of, build_catalog
from .fences import display_math_outside_fences, number_codemath_fences
from .project import Project
from .render import relative_url, render_codemath, render_equation, render_implementation, render_problem
from .selectors import SelectorError, select_lines
from .shapes import ShapeError, render_shapes
from .source_index import index_page, source_index_markdown
from .source_pages import PLACEHOLDER, source_page_html, source_page_markdown
from .values import render_values, value_scope

DIRECTIVES = ("equation", "codemath", "implementation", "shapes")


@dataclass
class CurrentPage:
    src: str  # docs-relative Markdown path
    url: str  # directory-style site URL


@dataclass
class SiteBuild:
    project: Project
    report: Callable[[str], None]  # called once per problem; the mkdocs glue logs a warning (strict fails)
    index: CodeIndex | None = None
    catalog: EquationCatalog | None = None
    page_urls: dict[str, str] = field(default_factory=dict)
    page: CurrentPage | None = None
    _scope: dict | None = None

    # ---- collect -------------------------------------------------------------------------------------------
    def collect(self, pages: dict[str, str], page_urls: dict[str, str]) -> None:
        """Index the code, resolve every page's equations and import the engine; report what does not resolve."""
        self.page_urls = page_urls
        self.index = build_index(self.project.root, self.project.folders, self.project.exclude)
        self.catalog = build_catalog(pages, self.index, self.project)
        for problem in self.catalog.problems:
            self.report(str(problem))

    @property
    def scope(self) -> dict:
        """Names an inline value or a shapes table sees; the engine is imported on first use in each build."""
        if self._scope is None:
            fingerprint = frozenset((path, f.digest) for path, f in self.index.files.items()
                                    if path.startswith(self.project.package + "/"))
            package, modules = load_package(self.project, fingerprint)
            self._scope = value_scope(package, modules)
        return self._scope

    # ---- render --------------------------------------------------------------------------------------------
    def prepare_page(self, src: str, url: str, markdown: str) -> str:
        """Before Markdown runs on a page: remember it, number its codemath fences, fill its inline values."""
        self.page = CurrentPage(src, url)
        for lineno in display_math_outside_fences(markdown):
            self._problem(f"display math on line {lineno} is not in an ```equation fence, so it has no id and no "
                          f"code link")
        markdown = number_codemath_fences(markdown)
        return render_values(markdown, self.scope, lambda message: self._problem(message))

    def _problem(self, message: str, equation: str | None = None, symbol: str | None = None) -> str:
        problem = BuildProblem(self.page.src if self.page else "?", message, equation, symbol)
        self.report(str(problem))
        return render_problem(str(problem))

    def custom_fences(self) -> list[dict]:
        """pymdownx.superfences `custom_fences` entries for the four directives of this build."""
        formatters = {"equation": self._equation, "codemath": self._codemath,
                      "implementation": self._implementation, "shapes": self._shapes}
        return [{"name": name, "class": f"lw-{name}", "format": self._guard(formatters[name]),
                 "validator": _keep_options} for name in DIRECTIVES]

    def _guard(self, formatter):
        """Superfences swallows a formatter's exception and prints the raw fence; turn it into a reported problem."""
        def format_fence(source, language, css_class, options, md, **kwargs):
            try:
                return formatter(source, options)
            except Exception as error:  # a bug here must fail the build loudly, not render blank
                return self._problem(f"{language} fence failed: {type(error).__name__}: {error}")
        return format_fence

    def _equation(self, source: str, options: dict) -> str:
        anchor = anchor_of(options.get("id", ""))
        equation = self.catalog.find(self.page.src, anchor)
        if equation is None:
            return self._problem("equation was not collected (fence without id= or a duplicate id)", anchor)
        return render_equation(equation, source, self.project, self.page.url)

    def _codemath(self, source: str, options: dict) -> str:
        group = int(options.get("group", -1))
        equations = [e for e in self.catalog.on_page(self.page.src) if e.codemath_group == group]
        if not equations:
            return self._problem("codemath fence has no equation fence above it (since the previous codemath)")
        return render_codemath(equations, self.project, self.page.url)

    def _implementation(self, source: str, options: dict) -> str:
        symbol = options.get("symbol")
        if not symbol or self.index.function(symbol) is None:
            return self._problem(f"no function of that name in {self.project.package}/", symbol=symbol or "(missing symbol=)")
        return render_implementation(symbol, self.index, self.project, self.page.url)

    def _shapes(self, source: str, options: dict) -> str:
        site = options.get("site")
        href = label = None
        if site:
            function = self.index.function(site)
            if function is None:
                return self._problem(f"shapes site: no function of that name in {self.project.package}/", symbol=site)
            try:
                first, _ = select_lines(options.get("select"), function, self.index.files[function.path])[0]
            except SelectorError as error:
                return self._problem(f"shapes site: {error}", symbol=site)
            href = relative_url(self.project.source_url(function.path, first), self.page.url)
            label = f"{function.path}:{first}"
        config_module = self.scope.get("config")
        if config_module is None or not hasattr(config_module, "GPTConfig"):
            return self._problem(f"shapes need {self.project.package}.config.GPTConfig", symbol=site)
        try:
            train_module = self.scope.get("train")
            settings = train_module.TrainSettings() if hasattr(train_module, "TrainSettings") else None
            return render_shapes(options.get("title", ""), source, config_module.GPTConfig(), settings, href, label)
        except ShapeError as error:
            return self._problem(f"shapes: {error}", symbol=site)

    # ---- source pages --------------------------------------------------------------------------------------
    def source_paths(self) -> list[str]:
        return sorted(self.index.files)

    def source_page(self, path: str) -> str:
        """Markdown of the generated page of `path`; `fill_source_page` puts the code into its HTML."""
        return source_page_markdown(path)

    def fill_source_page(self, path: str, html: str) -> str:
        code = source_page_html(self.index.files[path], self.catalog, self.page_urls, self.project)
        return html.replace(PLACEHOLDER, code, 1)

    def source_index(self) -> str:
        """Markdown of the index of the source pages (source/index.md), complete: it has no placeholder."""
        return source_index_markdown(self.index.files, self.catalog, self.project)

    def is_generated(self, page_src: str) -> bool:
        """A source page or their index: pages the build writes, with no directives of their own."""
        return page_src == index_page(self.project) or self.source_path_of(page_src) is not None

    def source_path_of(self, page_src: str) -> str | None:
        """engine/norms.py for the generated page source/engine/norms.md, None for an authored page."""
        prefix = self.project.source_dir + "/"
        if not page_src.startswith(prefix):
            return None
        path = page_src[len(prefix) : -len(".md")] + ".py"
        return path if path in self.index.files else None


def _keep_options(language, inputs, options, attrs, md) -> bool:
    """Superfences validator: keep every `key="value"` of the opening line as an option for the formatter."""
    options.update(inputs)
    return True
