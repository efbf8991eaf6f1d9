"""The Embedding page: its inline values against the seed's worked example (ids [2, 0, 2])."""
from page_values import shown_texts

SHOWN = shown_texts("layers/embedding.md")


def test_the_worked_example_and_the_repeated_id_trap():
    # E = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], ids [2, 0, 2] -> rows 2, 0, 2. Upstream [1, 1], [2, 2], [3, 3]:
    # row 0 gets [2, 2], row 1 nothing, row 2 gets [1, 1] + [3, 3] = [4, 4]; `dE[ids] += g` keeps only [3, 3].
    assert SHOWN == [
        "[[0.5, 0.6], [0.1, 0.2], [0.5, 0.6]]",
        "[[2.0, 2.0], [0.0, 0.0], [4.0, 4.0]]",
        "[[2.0, 2.0], [0.0, 0.0], [3.0, 3.0]]",
        "512",  # T * d = 16 * 32 numbers per sequence
    ]
