"""Golden tests: fixture Markdown in golden/*.md -> the tables or HTML in golden/*.expected.

The expected files were written by hand from reading tests/site/fixtures/project (line numbers counted there),
not produced by the code under test.
"""
import re
from html import unescape
from pathlib import Path

import pytest

from layerwise_build.crosslink.source_pages import PLACEHOLDER
from crosslink_harness import render, tables

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.md"))


def _expected_tables_and_text(expected: str):
    blocks = [b for b in expected.strip().split("\n\n")]
    text_lines = [line[len("text: "):] for b in blocks for line in b.splitlines() if line.startswith("text: ")]
    table_blocks = [[line for line in b.splitlines() if not line.startswith("text: ")] for b in blocks]
    return [t for t in table_blocks if t], text_lines


@pytest.mark.parametrize("case", CASES)
def test_golden(case):
    html, problems, _ = render((GOLDEN / f"{case}.md").read_text())
    assert problems == []
    expected = (GOLDEN / f"{case}.expected").read_text()
    if expected.lstrip().startswith("<"):
        assert expected.strip() in html
        return
    expected_tables, expected_text = _expected_tables_and_text(expected)
    assert [[row.rstrip() for row in t] for t in tables(html)] == expected_tables
    plain = " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())
    for line in expected_text:
        assert line in plain


def test_source_page_links_each_implementing_line_back_to_its_equation():
    page = (GOLDEN / "codemath_linear_forward.md").read_text()
    _, problems, build = render(page)
    assert problems == []
    assert PLACEHOLDER in build.source_page("toy/model.py")
    rows = tables(build.fill_source_page("toy/model.py", PLACEHOLDER))[0]
    with_links = [row.rstrip() for row in rows if "∑" in row]
    assert with_links == [
        '9 -> #L9 | ∑ lin -> ../../../layers/toy/#eq-lin | z = a @ params["w2"] + params["b2"]',
        '15 -> #L15 | ∑ lin -> ../../../layers/toy/#eq-lin | return x @ w + 0.0',
    ]
    linear_rows = tables(build.fill_source_page("toy/linear.py", PLACEHOLDER))[0]
    assert [r.split(" |")[0] for r in linear_rows if "∑" in r] == ["7 -> #L7"]
    assert len(linear_rows) == 19  # every line of toy/linear.py, numbered from 1


def test_every_code_and_math_cell_names_its_column_and_its_equation():
    """Two levels of header cells (columns, then each equation's row): data cells say which by ``headers``."""
    html, problems, _ = render((GOLDEN / "codemath_linear_forward.md").read_text())
    assert problems == []
    table = html[html.index('<table class="lw-codemath__table">'):html.index("</table>")]
    columns = re.findall(r'<th id="([^"]+)">', table)
    assert columns == ["codemath-eq-lin-role", "codemath-eq-lin-line", "codemath-eq-lin-function",
                       "codemath-eq-lin-code"]
    assert re.findall(r'<th colspan="4" id="([^"]+)">', table) == ["eq-lin-places"]
    rows = [re.findall(r'<td headers="([^"]+)">', row) for row in table.split("<tr>")[2:]]
    assert len(rows) == 5  # the five places of the golden table
    assert all(row == [f"{column} eq-lin-places" for column in columns] for row in rows)
