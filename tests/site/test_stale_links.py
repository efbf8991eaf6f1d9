"""A strict build of a fixture site fails, naming page, equation and symbol, when the code or a link goes stale."""
import shutil
from html import unescape
from pathlib import Path

import pytest

from crosslink_harness import FIXTURE, REPO, mkdocs_build


@pytest.fixture
def toy_site(tmp_path) -> Path:
    """A copy of the fixture project with its own mkdocs.yml, and node_modules (KaTeX) installed as in any project
    that uses the plugin: linked from this one."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    (project / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    return project


def _edit(path: Path, old: str, new: str):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_fixture_site_builds_strictly_as_it_is(toy_site, tmp_path):
    result = mkdocs_build(toy_site / "mkdocs.yml", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    page = unescape((tmp_path / "out" / "index.html").read_text())
    assert 'id="eq-toy-linear"' in page and "[-1.342, -0.447, 0.447, 1.342]" in page
    assert 'href="source/toy/linear/#L7"' in page


def test_renamed_function_fails_the_build_naming_page_equation_and_symbol(toy_site, tmp_path):
    for path in (toy_site / "toy" / "linear.py", toy_site / "toy" / "model.py", toy_site / "tests" / "test_toy.py",
                 toy_site / "toy" / "__init__.py"):
        path.write_text(path.read_text().replace("linear_forward", "affine_forward"))
    result = mkdocs_build(toy_site / "mkdocs.yml", tmp_path / "out")
    assert result.returncode != 0
    assert ("page 'index.md', equation 'eq-toy-linear', symbol 'toy.linear.linear_forward': "
            "no function of that name in toy/") in result.stderr
    assert "symbol 'toy.linear.linear_forward'" in result.stderr.split("eq-toy-linear", 1)[1]  # implementation too


def test_selector_that_no_longer_matches_fails_the_build(toy_site, tmp_path):
    _edit(toy_site / "toy" / "linear.py", "    out = x @ w + b  # (T, c)\n    return out, (x, w)",
          "    return x @ w + b, (x, w)")
    result = mkdocs_build(toy_site / "mkdocs.yml", tmp_path / "out")
    assert result.returncode != 0
    assert ("page 'index.md', equation 'eq-toy-linear', symbol 'toy.linear.linear_forward': "
            "selector part 'out=' matches no line of toy.linear.linear_forward") in result.stderr


def test_equation_without_code_and_link_to_missing_anchor_fail_the_build(toy_site, tmp_path):
    page = toy_site / "docs" / "index.md"
    page.write_text(page.read_text() + '\n```equation id="orphan" title="No code"\nx = 1\n```\n\n'
                    "See [the orphan](#eq-orphan) and [nothing](#eq-nowhere).\n")
    result = mkdocs_build(toy_site / "mkdocs.yml", tmp_path / "out")
    assert result.returncode != 0
    assert "page 'index.md', equation 'eq-orphan': has no code link" in result.stderr
    assert "#eq-nowhere" in result.stderr
    assert "#eq-orphan" not in result.stderr.replace("equation 'eq-orphan'", "")  # that anchor exists


def test_links_to_equation_anchors_across_pages_are_validated(toy_site, tmp_path):
    """The anchors the directives write (#eq-...) are known to mkdocs' own link validation on every page, so an
    author may link to any equation from any page, in either direction, and a wrong anchor still fails naming
    the page and the anchor."""
    (toy_site / "docs" / "more.md").write_text(
        "# More\n\n!!! note\n\n    ```equation id=\"toy-norm\" title=\"Norm\" code=\"toy.norms.layernorm_forward\" "
        "select=\"x_hat=\"\n    \\hat x = (x - \\mu) / \\sigma\n    ```\n\n"
        "Back to [the linear layer](index.md#eq-toy-linear).\n")
    page = toy_site / "docs" / "index.md"
    page.write_text(page.read_text() + "\nThen [the norm](more.md#eq-toy-norm).\n")
    result = mkdocs_build(toy_site / "mkdocs.yml", tmp_path / "out")
    assert result.returncode == 0, result.stderr

    page.write_text(page.read_text().replace("more.md#eq-toy-norm", "more.md#eq-toy-nrom"))
    result = mkdocs_build(toy_site / "mkdocs.yml", tmp_path / "out")
    assert result.returncode != 0
    assert "'index.md' contains a link 'more.md#eq-toy-nrom'" in result.stderr
    assert "'more.md' does not contain an anchor '#eq-toy-nrom'" in result.stderr
