"""Exercise prose in the project's own words: statements, hints and known mistakes' hints share no run of 8 or
more words with the source documents in `../shared/seeds/` (checked as `tests/pages/test_own_words.py` checks
the pages, with the same `scripts/seed_overlap.py`)."""
import os
import sys
from pathlib import Path

import pytest

from engine import exercises

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import seed_overlap  # noqa: E402

SEEDS = Path(os.environ.get("LAYERWISE_SEEDS", seed_overlap.SEEDS))


def test_no_exercise_shares_a_run_of_8_words_with_the_source_documents():
    if not any(SEEDS.glob("*.txt")):
        pytest.skip(f"the source documents are not here ({SEEDS} has no *.txt): nothing to compare with")
    grams = seed_overlap.seed_runs(SEEDS)
    found = []
    for exercise_id in exercises.ids():
        exercise = exercises.get(exercise_id)
        texts = [exercise.STATEMENT, *exercise.HINTS, *(mistake.hint for mistake in exercise.MISTAKES)]
        found += seed_overlap.shared_runs(exercise_id, "\n\n".join(texts), grams)
    assert found == []
