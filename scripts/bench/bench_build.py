"""Benchmark of the site build: the full strict build, the cross-linker alone, and a serve-style rebuild.

    .venv/bin/python scripts/bench/bench_build.py [--runs 3]

Prints min / median / max seconds. The rebuild measurement builds a mirror of the project twice in one process,
as `mkdocs serve` does, changing one page in between, and reports how many Python files the cross-linker re-parsed
and how long the plugin's notebooks part took.
"""
from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layerwise_build.crosslink import codeindex, equations, render
from layerwise_build.crosslink.project import Project
from layerwise_build.crosslink.site import SiteBuild
from layerwise_build.crosslink.source_pages import PLACEHOLDER
from layerwise_build.parts import notebooks as notebooks_part

ROOT = Path(__file__).resolve().parents[2]
os.environ["NO_MKDOCS_2_WARNING"] = "1"


def clear_caches() -> None:
    """Forget every parse, pattern search and highlighted file, as in a fresh process."""
    codeindex._CACHE.clear()
    equations._MATCHES.clear()
    render._highlight.cache_clear()


def summary(name: str, seconds: list[float]) -> str:
    return (f"{name:<44} min {min(seconds):7.3f} s   median {statistics.median(seconds):7.3f} s   "
            f"max {max(seconds):7.3f} s   ({len(seconds)} runs)")


def full_builds(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", out],
                                    cwd=ROOT, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if result.returncode != 0:
                sys.exit(f"strict build failed:\n{result.stderr[-3000:]}")
    return times


def crosslinker_alone(runs: int, cold: bool) -> list[float]:
    """Collect (index + every page's equations) and render every source page; `cold` empties the parse cache."""
    project = Project(root=ROOT, exclude=("tests/site/fixtures",), demos=("engine/examples",))
    docs = ROOT / "docs"
    pages = {p.relative_to(docs).as_posix(): p.read_text() for p in docs.rglob("*.md")}
    urls = {src: ("" if src == "index.md" else src[: -len(".md")] + "/") for src in pages}
    times = []
    for _ in range(runs):
        if cold:
            clear_caches()
        start = time.perf_counter()
        build = SiteBuild(project, lambda message: None)
        build.collect(pages, urls)
        for path in build.source_paths():
            build.fill_source_page(path, PLACEHOLDER)
        times.append(time.perf_counter() - start)
    return times


class _ParseCounter(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.getMessage().startswith("cross-linker:"):
            self.messages.append(record.getMessage())


def _time_part(part, spent: list[float]):
    """Wrap every event handler of the plugin's part module ``part`` (the plugin looks them up at each event) so
    that its wall time adds up in spent[0]; returns a function that puts the handlers back."""
    def timed(event):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return event(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start
        return run

    handlers = {name: getattr(part, name) for name in dir(part) if name.startswith("on_")}
    for name, handler in handlers.items():
        setattr(part, name, timed(handler))
    return lambda: [setattr(part, name, handler) for name, handler in handlers.items()]


def serve_style_rebuild() -> None:
    """Two builds in one process over a mirror of the project, one page edited in between."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    counter = _ParseCounter()
    logging.getLogger("mkdocs.plugins.layerwise").addHandler(counter)
    logging.getLogger("mkdocs.plugins.layerwise").setLevel(logging.INFO)
    with tempfile.TemporaryDirectory() as tmp:
        mirror = Path(tmp) / "project"
        mirror.mkdir()
        # the project's root is mkdocs.yml's folder: the mirror links what the plugin finds there
        for name in ("engine", "tests", "widgets", "overrides", "node_modules", ".venv-pyodide", ".cache",
                     "pyproject.toml", "README.md", "package.json", "package-lock.json"):
            if (ROOT / name).exists():
                (mirror / name).symlink_to(ROOT / name)
        shutil.copytree(ROOT / "docs", mirror / "docs")
        shutil.copy(ROOT / "mkdocs.yml", mirror / "mkdocs.yml")
        clear_caches()
        timings = []
        for step in ("first build", "rebuild after editing docs/layers/linear.md"):
            if step.startswith("rebuild"):
                page = mirror / "docs" / "layers" / "linear.md"
                page.write_text(page.read_text() + "\nOne more sentence, as an author would add it.\n")
            config = load_config(str(mirror / "mkdocs.yml"), site_dir=str(Path(tmp) / "site"), strict=True)
            notebooks = [0.0]
            restore = _time_part(notebooks_part, notebooks)
            start = time.perf_counter()
            try:
                build(config)
            finally:
                restore()
            timings.append((step, time.perf_counter() - start, counter.messages[-1], notebooks[0]))
    for step, seconds, message, notebooks in timings:
        print(f"  {step:<46} {seconds:6.2f} s   {message}; notebooks' part {notebooks:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    print(summary("full strict build (mkdocs build --strict)", full_builds(runs)))
    print(summary("cross-linker alone, cold (empty cache)", crosslinker_alone(runs, cold=True)))
    print(summary("cross-linker alone, warm (nothing changed)", crosslinker_alone(runs, cold=False)))
    print("serve-style rebuild in one process:")
    serve_style_rebuild()


if __name__ == "__main__":
    main()
