"""Adding a page is one command: `new-page` on a temporary copy of the project, its places named by the strict
build, then filled with a real layer (SiLU, tests/site/fixtures/new_page/silu.py): the build passes and so do the
new page's own tests."""
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crosslink_harness import REPO, mkdocs_build
from layerwise_build.newpage import places
from layerwise_build.newpage.create import ScaffoldError, create

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "new_page" / "silu.py"
FOLDERS = ["docs", "engine", "tests"]
LINKED = ["node_modules", ".venv-pyodide"]  # installed, not copied: the build finds them at the project's root
# the site's trained model (a minute of training): a new layer does not change what trains it, so the copy's
# builds find the real project's cached one, keyed by a hash of the training code and corpus
SHARED_CACHES = [".cache/layerwise-model"]


def fills():
    spec = importlib.util.spec_from_file_location("silu_fills", FIXTURE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FILLS


def copy_project(target):
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file() and not name.startswith(tuple(LINKED)):
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for name in LINKED + SHARED_CACHES:
        (REPO / name).mkdir(parents=True, exist_ok=True)
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).symlink_to(REPO / name, target_is_directory=True)


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    copy_project(root)
    done = subprocess.run([sys.executable, str(root / "scripts" / "tools" / "new_page.py"), "silu", "SiLU",
                           "--after", "layers/activations.md", "--root", str(root)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return root, done.stdout


def test_the_scaffold_writes_each_part_of_a_page(scaffolded):
    root, report = scaffolded
    for path in ("engine/silu.py", "tests/engine/test_silu_layer.py", "engine/examples/silu.py",
                 "tests/examples/test_silu.py", "engine/exercises/silu_forward.py", "docs/layers/silu.md",
                 "tests/exercises/learner_programs/silu.py", "tests/pages/test_silu_page.py"):
        assert (root / path).is_file() and path in report
    nav = (root / "mkdocs.yml").read_text()
    assert nav.index("layers/activations.md") < nav.index("SiLU: layers/silu.md") < nav.index("layers/softmax.md")


def test_the_strict_build_names_every_unfilled_place_and_nothing_else(scaffolded, tmp_path):
    root, _ = scaffolded
    result = mkdocs_build(root / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    warnings = [line for line in result.stderr.splitlines() if line.startswith("WARNING")]
    assert all(" is not filled yet: " in line for line in warnings), warnings
    named = {line.split("place '", 1)[1].split("'", 1)[0] for line in warnings}
    assert named == set(fills()) and len(warnings) == len(fills())
    assert "docs/layers/silu.md:" in result.stderr and "engine/silu.py:" in result.stderr


def test_filled_with_a_real_layer_the_site_builds_and_the_pages_tests_pass(scaffolded, tmp_path):
    root, _ = scaffolded
    answers = fills()
    for folder in FOLDERS:
        for path in (root / folder).rglob("*"):
            if path.suffix in places.SUFFIXES and path.is_file() and "FILL-IN" in path.read_text():
                path.write_text(places.fill(path.read_text(), path.suffix, answers))
    assert places.unfilled(root, FOLDERS, exclude=("tests/site/fixtures",)) == []
    result = mkdocs_build(root / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stderr[-4000:]
    home = (tmp_path / "site" / "index.html").read_text()
    assert home.index('href="layers/activations/"') < home.index('href="layers/silu/"') < home.index(
        'href="layers/softmax/"')
    # what `dev.sh check silu` runs, less the files that need a second strict build (own words, page order)
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests/engine/test_silu_layer.py",
         "tests/examples/test_silu.py", "tests/examples/test_kinds.py", "tests/exercises/test_exercises.py",
         "tests/exercises/test_programs.py", "tests/pages/test_silu_page.py", "tests/site/test_page_sections.py"],
        cwd=root, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert tests.returncode == 0, tests.stdout[-4000:]
    # the new page's tests ran among the rest: its layer, kind, exercise, learner programs and page test
    for name in ("test_silu_layer.py::", "test_silu.py::", "[silu-forward:in place] PASSED", "test_silu_page.py::"):
        assert name in tests.stdout, f"no test of {name} ran:\n{tests.stdout[-2000:]}"


@pytest.mark.parametrize("name, title, after, message", [
    ("SiLU", "SiLU", "layers/activations.md", "must be a Python module name in lower case"),
    ("silu", " ", "layers/activations.md", "the title must not be empty"),
    ("silu", "SiLU", "layers/nowhere.md", "is not a page of mkdocs.yml's nav"),
    ("linear", "Linear again", "layers/activations.md", "engine/linear.py exists already"),
])
def test_bad_arguments_are_named(name, title, after, message):
    with pytest.raises(ScaffoldError, match=message):
        create(REPO, name, title, after)


def test_a_place_without_its_end_is_named(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("text\n<!-- FILL-IN intro: say hello -->\nmore\n")
    assert places.unfilled(tmp_path, ["docs"]) == [
        "docs/page.md:2: a FILL-IN marker without its pair (a place runs from 'FILL-IN <place>: ...' to 'END FILL-IN')"]
