"""Every page in the project's own words: no run of 8 or more words shared with the source documents.

The documents the product was specified from live beside the project, in `../shared/seeds/` (CI has them there);
facts and numbers carry over from them, sentences do not. Formulas, code, numbers and paper titles (the References
sections) are left out of the comparison by `scripts/tools/seed_overlap.py`, which also lists the runs:
`python scripts/tools/seed_overlap.py ../shared/seeds [built site]`.

Three kinds of text are checked: the pages' Markdown; the built pages, for everything the build writes (shapes notes,
code-and-math captions, widget notes and readouts); and the exercises' statements and hints. The built pages come
from one strict build, or from `LAYERWISE_SITE` (a folder holding a build of this tree) to save the minute.
"""
import os
import sys
from pathlib import Path

import pytest

from page_values import REPO

sys.path.insert(0, str(REPO / "scripts" / "tools"))
sys.path.insert(0, str(REPO / "tests" / "site"))
import seed_overlap  # noqa: E402
from crosslink_harness import mkdocs_build  # noqa: E402

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


@pytest.fixture(scope="module")
def built_site(seed_runs, tmp_path_factory):
    if os.environ.get("LAYERWISE_SITE"):
        return Path(os.environ["LAYERWISE_SITE"])
    site = tmp_path_factory.mktemp("own-words-site")
    result = mkdocs_build(REPO / "mkdocs.yml", site)
    assert result.returncode == 0, f"strict build failed:\n{result.stderr[-4000:]}"
    return site


def test_no_built_page_shares_a_run_of_8_words_with_the_source_documents(seed_runs, built_site):
    found = seed_overlap.built_runs(built_site, seed_runs)
    assert [f"{run.page}: {run.words}" for run in found] == []


def test_no_exercise_shares_a_run_of_8_words_with_the_source_documents(seed_runs):
    found = seed_overlap.exercise_runs(seed_runs)
    assert [f"{run.page}: {run.words}" for run in found] == []


def test_a_built_page_is_read_as_its_reader_sees_it(seed_runs):
    copied = "Each one is a few lines of NumPy, but each has a detail that silently breaks training."
    shown = f"<p>{copied}</p>"
    hidden = [f"<pre>{copied}</pre>", f"<code>{copied}</code>", f'<span class="katex">{copied}</span>',
              f'<div class="lw-exercise"><p>{copied}</p><br></div>']
    references = f'<h2 id="references">References</h2><ul><li>{copied}</li></ul>'
    page = "<html><nav>" + copied + "</nav><article>" + shown + "".join(hidden) + "<h2 id=\"next\">Next</h2>"
    text = seed_overlap.reader_text(page + references + "</article><footer>" + copied + "</footer></html>")
    assert text.split() == copied.split() + ["Next"]
    assert len(seed_overlap.text_runs("probe", text, seed_runs)) == 1


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


def test_a_symbol_table_row_copied_from_a_seed_is_found(seed_runs):
    # seed 001 writes the symbols of its table as plain letters; the check reads short math and names the same way
    row = "| $a, c$ | input and output width: $d$, $F$ or $V$ depending on the layer | `W.shape` | scalars |\n"
    assert [run.words for run in seed_overlap.shared_runs("probe.md", row, seed_runs)] == [
        "d f or v depending on the layer"]
