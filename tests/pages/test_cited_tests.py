"""Every test a page names in a code span (`test_layernorm`) exists under tests/, so a renamed test cannot leave a
page pointing at nothing."""
import re

from page_values import REPO

CITED = re.compile(r"`(test_\w+)`")
DEFINED = re.compile(r"^\s*def (test_\w+)\(", re.M)


def test_every_cited_test_is_defined():
    defined = {name for path in (REPO / "tests").rglob("*.py") for name in DEFINED.findall(path.read_text())}
    cited = {(path.relative_to(REPO).as_posix(), name) for path in (REPO / "docs").rglob("*.md")
             for name in CITED.findall(path.read_text())}
    assert len(cited) >= 5  # the pages do cite tests; an empty set would prove nothing
    assert sorted((page, name) for page, name in cited if name not in defined) == []
