"""The build is one mkdocs plugin: another NumPy project (tests/site/fixtures/project, package ``toy``) builds
through it from its own mkdocs.yml with only the cross-linker on, and a bad option stops the build naming it."""
import fnmatch
import shutil
from html import unescape
from pathlib import Path

import pytest

from crosslink_harness import FIXTURE, REPO, mkdocs_build

OPTIONS = "package: toy\n      tests: tests"  # as written in the fixture's mkdocs.yml


@pytest.fixture
def toy(tmp_path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    (project / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)  # KaTeX, as `npm ci` puts it
    return project


def test_the_toy_project_gets_source_pages_and_links_and_none_of_the_parts_left_off(toy, tmp_path):
    assert OPTIONS in (toy / "mkdocs.yml").read_text()
    result = mkdocs_build(toy / "mkdocs.yml", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    site = tmp_path / "out"
    modules = sorted(p.relative_to(toy).with_suffix("").as_posix() for folder in ("toy", "tests")
                     for p in (toy / folder).glob("*.py"))
    assert modules == ["tests/test_toy", "toy/__init__", "toy/blocks", "toy/config", "toy/kinds", "toy/linear", "toy/model",
                       "toy/norms", "toy/train"]
    for module in modules:
        assert (site / "source" / module / "index.html").is_file(), module
    page = unescape((site / "index.html").read_text())
    # the equation's code: linear.py line 7 is `out = x @ w + b`; its test: test_toy.py line 8 calls linear_forward
    assert (toy / "toy" / "linear.py").read_text().splitlines()[6].strip().startswith("out = x @ w + b")
    assert "linear_forward(" in (toy / "tests" / "test_toy.py").read_text().splitlines()[7]
    assert 'href="source/toy/linear/#L7"' in page and 'href="source/tests/test_toy/#L8"' in page
    # widgets, practice, notebooks and the rest are off without their options
    assert not (site / "assets" / "layerwise").exists() and not (site / "notebooks").exists()
    assert not (site / "wheels").exists() and "lw-notebook" not in page


@pytest.mark.parametrize("options, message", [
    ("package: nowhere", "option 'package': there is no folder"),
    ("package: toy/", None),  # a trailing slash is the same folder
    (OPTIONS + "\n      capstone: toy.model", "option 'capstone': needs the option 'practice' too"),
    (OPTIONS + "\n      kinds: toy.linear", "option 'kinds': needs the option 'widgets' too"),
    (OPTIONS + "\n      widgets: toy", "option 'widgets': needs the option 'kinds' too"),  # any folder will do
    (OPTIONS + "\n      practice: engine exercises", "option 'practice': 'engine exercises' is not a Python module name"),
    (OPTIONS + "\n      inside: true", "option 'inside': give the part's module, such as engine.inside, not true"),
    (OPTIONS + "\n      inside: maybe", "option 'inside': the module maybe is not in the package 'toy'"),
    (OPTIONS + "\n      practice: toy.exercises", "option 'practice': there is no module toy.exercises: neither"),
    (OPTIONS + "\n      widgets: no-such-folder", "option 'widgets': The path '*/project/no-such-folder' isn't an existing"),
    (OPTIONS + "\n      offline: true", "option 'offline': needs the option 'widgets' too"),
    (OPTIONS + "\n      notebook: [layers]", "Plugin 'layerwise' option 'notebook': Unrecognised configuration name"),
    ("tests: tests", "option 'package': Required configuration not provided"),
])
def test_a_bad_option_stops_the_build_naming_it(toy, tmp_path, options, message):
    config = toy / "mkdocs.yml"
    config.write_text(config.read_text().replace(OPTIONS, options))
    result = mkdocs_build(config, tmp_path / "out")
    if message is None:
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode != 0 and fnmatch.fnmatch(result.stderr, f"*{message}*"), result.stderr
