"""Where the code lives and where its source pages go: the settings both halves of the cross-linker share."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Project:
    root: Path  # the folder holding the package and its tests
    package: str = "engine"  # the importable package the equations are tied to
    tests: str = "tests"  # folder of the tests whose calls count as "Tests it"
    source_dir: str = "source"  # site folder of the generated source pages
    exclude: tuple[str, ...] = ()  # folders under package/tests that are not part of the project (fixtures)
    demos: tuple[str, ...] = ()  # package folders that only demonstrate helpers (widget kinds): not "Calls it"

    def is_model_code(self, path: str) -> bool:
        """In the package, and not a demonstration: where "Calls it", "Written inline" and "Called by" look."""
        return path.startswith(self.package + "/") and not any(path.startswith(d.rstrip("/") + "/") for d in self.demos)

    @property
    def folders(self) -> list[str]:
        return [self.package, self.tests]

    def is_test(self, path: str) -> bool:
        return path.startswith(self.tests + "/")

    def source_page(self, path: str) -> str:
        """Docs-relative Markdown path of the generated page of `path`: engine/norms.py -> source/engine/norms.md."""
        return f"{self.source_dir}/{path[: -len('.py')]}.md"

    def source_url(self, path: str, lineno: int | None = None) -> str:
        """Site URL (directory style) of a source line: engine/norms.py, 12 -> source/engine/norms/#L12."""
        url = f"{self.source_dir}/{path[: -len('.py')]}/"
        return f"{url}#L{lineno}" if lineno else url

    def short_name(self, qualname: str) -> str:
        """engine.model.block_forward -> model.block_forward: the package prefix says nothing on its own pages."""
        prefix = self.package + "."
        return qualname[len(prefix):] if qualname.startswith(prefix) else qualname
