"""Every page in the project's own words: no run of 8 or more words shared with the source documents.

The documents the product was specified from live beside the project, in `../shared/seeds/` (CI has them there);
facts and numbers carry over from them, sentences do not. Formulas, code, numbers and paper titles (the References
sections) are left out of the comparison by `scripts/seed_overlap.py`, which also lists the runs:
`python scripts/seed_overlap.py ../shared/seeds`.
"""
import os
import sys
from pathlib import Path

import pytest

from page_values import REPO

sys.path.insert(0, str(REPO / "scripts"))
import seed_overlap  # noqa: E402

SEEDS = Path(os.environ.get("LAYERWISE_SEEDS", seed_overlap.SEEDS))


@pytest.fixture(scope="module")
def seed_runs():
    if not any(SEEDS.glob("*.txt")):
        pytest.skip(f"the source documents are not here ({SEEDS} has no *.txt): nothing to compare the pages with")
    return seed_overlap.seed_runs(SEEDS)


def test_no_page_shares_a_run_of_8_words_with_the_source_documents(seed_runs):
    found = [run for path in sorted((REPO / "docs").rglob("*.md"))
             for run in seed_overlap.shared_runs(str(path.relative_to(REPO / "docs")), path.read_text(), seed_runs)]
    assert [f"docs/{run.page}:{run.line}: {run.words}" for run in found] == []


def test_the_check_finds_a_copied_sentence_and_ignores_formulas_numbers_and_titles(seed_runs):
    copied = "Each one is a few lines of NumPy, but each has a detail that silently breaks training."
    assert seed_overlap.shared_runs("probe.md", f"Intro.\n\n{copied}\n", seed_runs)[0].line == 3
    formula = "```equation id=\"x\"\n" + copied + "\n```\n"
    math_and_code = "$" + copied + "$ and `" + copied + "`"
    titles = "## References\n\n- " + copied + "\n"
    for markdown in (formula, math_and_code, titles):
        assert seed_overlap.shared_runs("probe.md", markdown, seed_runs) == []
    # numbers are dropped: a run of 8 words split by numbers still counts, numbers alone never do
    assert seed_overlap.words_with_lines("mean 2.5 and 1.25") == [("mean", 1), ("and", 1)]
