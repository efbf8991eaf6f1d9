"""The Embedding page: its inline values against the worked example (ids [2, 0, 2]) done by hand."""
from page_values import REPO, page_text, shown_after, shown_texts

PAGE = page_text("layers/embedding.md")

SHOWN = shown_texts("layers/embedding.md")

V = len(set((REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")))  # the corpus's characters
d, T, F, L = 32, 16, 128, 2  # the default GPTConfig
PARAMS = (V + T) * d + L * (4 * d * d + 4 * d + 2 * d * F + F + d + 4 * d) + 2 * d + d * V + V  # by hand


def test_the_worked_example_and_the_repeated_id_trap():
    # E = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], ids [2, 0, 2] -> rows 2, 0, 2. Upstream [1, 1], [2, 2], [3, 3]:
    # row 0 gets [2, 2], row 1 nothing, row 2 gets [1, 1] + [3, 3] = [4, 4]; `dE[ids] += g` keeps only [3, 3].
    assert SHOWN[15:] == [
        "[[0.5, 0.6], [0.1, 0.2], [0.5, 0.6]]",
        "[[2.0, 2.0], [0.0, 0.0], [4.0, 4.0]]",
        "[[2.0, 2.0], [0.0, 0.0], [3.0, 3.0]]",
        str(V),  # the corpus's distinct characters
        str(V), "32", str(V * 32),  # V * d
        "512",  # T * d = 16 * 32 numbers per sequence
    ]


def test_row_sums_and_the_corpus_vocabulary():
    dE = [[2, 2], [0, 0], [1 + 3, 1 + 3]]
    upstream = [[1, 1], [2, 2], [3, 3]]
    assert [sum(row) for row in dE] == [4, 0, 8] and "gives $4$, $0$ and $8$" in PAGE
    assert sum(map(sum, dE)) == sum(map(sum, upstream)) == 12 and "$2 + 4 + 6$" in PAGE
    assert "$V \\cdot d$" in PAGE
    assert "65" not in PAGE


def test_the_byte_pair_merges_worked_by_hand():
    # "the thee thou": t-h occurs 3 times (the, thee, thou) -> th; then (th, e), (e, space), (space, th) occur twice
    # each, and (th, e) comes first -> "the"; 13 characters become 10 tokens, then 8
    assert SHOWN[:11] == [str(V), "50,257", "13", "3", "th · e · ␣ · th · e · e · ␣ · th · o · u", "2",
                          "the · ␣ · the · e · ␣ · th · o · u", "8", str(V), "50,257", f"{100 * V * 32 / PARAMS:.1f}"]
    assert SHOWN[11] == f"{100 * 50_257 * 768 / 124_439_808:.0f}" == "31"  # GPT-2 small's token table, head tied


def test_swapping_earlier_tokens_is_invisible_without_positions():
    rounding, with_positions, size = map(float, shown_after("layers/embedding.md", "tokens 0 and 2 swapped", 3))
    assert rounding < 1e-12 and with_positions > 1.0
    # "about its own size": the change is read against the largest output entry at the same positions
    assert 0.5 < with_positions / size <= 1.0 and "about its own size" in PAGE
