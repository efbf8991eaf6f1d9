"""The index of the source pages (layerwise_build/crosslink/source_index.py), the nav's one "Source" entry: every
file of the package and of its tests, by folder, with the first line of its docstring and how many of its lines
link back to an equation; and the line on each source page that leads back to it.

Expected rows are read from tests/site/fixtures/project by eye (docstrings, and the lines the golden case's
equation selects or matches: toy/linear.py line 7, toy/model.py lines 9 and 15).
"""
import re
from pathlib import Path

from layerwise_build.crosslink.project import Project
from layerwise_build.crosslink.site import SiteBuild
from crosslink_harness import render, tables

GOLDEN = Path(__file__).resolve().parent / "golden"
HEADING = re.compile(r"^## (.+)$", re.M)


def test_the_index_lists_every_file_by_folder_the_package_first():
    _, problems, build = render((GOLDEN / "codemath_linear_forward.md").read_text())
    assert problems == []
    index = build.source_index()
    assert HEADING.findall(index) == ["toy/", "tests/"]
    toy, tests = [[row.rstrip() for row in table] for table in tables(index)]
    header = "File | ∑"  # a row: the name and, under it (<br>, no space), the docstring -> the link | ∑ count
    assert toy == [
        header,
        "__init__.pyA toy package for the cross-linker's golden tests: small enough to read every line number by "
        "eye. -> toy/__init__/ | 0",
        "blocks.pyToy dispatch: the norm is looked up in a table, never called by its name. -> toy/blocks/ | 0",
        "config.py -> toy/config/ | 0",  # no docstring
        # the first line goes on in its paragraph: "…"; its ``literals`` show as code, text only here
        "kinds.pyThe toy's one widget kind, scale (y = s * x), written against the plugin's contract for a kinds' "
        "module … -> toy/kinds/ | 0",
        "linear.pyToy linear layer. -> toy/linear/ | 1",
        "model.pyToy block: one call of each helper and one inline copy of the linear formula. -> toy/model/ | 2",
        "norms.pyToy LayerNorm. -> toy/norms/ | 0",
        "train.py -> toy/train/ | 0",
    ]
    assert tests == [header, "test_toy.py -> tests/test_toy/ | 0"]


def test_a_docstring_shows_its_first_line_escaped_with_its_literals_as_code(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "pkg" / "ops.py").write_text(
        '"""Keeps ``x < y`` and `z`,\nwhichever comes first.\n\nA second paragraph."""\n')
    (tmp_path / "pkg" / "one.py").write_text('"""One line | no more."""\n')
    build = SiteBuild(Project(root=tmp_path, package="pkg"), report=lambda problem: None)
    build.collect({}, {})
    index = build.source_index()
    # a first line that its paragraph goes on from ends in "…"; a paragraph of one line does not
    assert "ops.py</a><br>Keeps <code>x &lt; y</code> and <code>z</code>, …</td>" in index
    assert "one.py</a><br>One line | no more.</td>" in index


def test_each_source_page_starts_with_a_link_back_to_the_index(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    for path in ("pkg/top.py", "pkg/sub/deep.py", "tests/test_top.py"):
        (tmp_path / path).write_text("x = 1\n")
    build = SiteBuild(Project(root=tmp_path, package="pkg"), report=lambda problem: None)
    build.collect({}, {})
    # the pages are source/pkg/top.md, source/pkg/sub/deep.md and source/tests/test_top.md; the index source/index.md
    for path, index in [("pkg/top.py", "../index.md"), ("pkg/sub/deep.py", "../../index.md"),
                        ("tests/test_top.py", "../index.md")]:
        body = build.source_page(path).split("---\n", 2)[2]
        assert body.lstrip().startswith(f"[Source]({index}) ›\n\n# {path}\n"), path
    assert HEADING.findall(build.source_index()) == ["pkg/", "pkg/sub/", "tests/"]
