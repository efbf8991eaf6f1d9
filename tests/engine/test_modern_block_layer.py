"""The comparison table of engine.modern_block: each variant differs from GPT-2's block by its switch alone."""
from engine import modern_block
from engine.data import load_corpus


def test_each_row_changes_what_its_switch_changes():
    rows = modern_block.comparison(steps=10, seed=0)
    assert list(rows) == list(modern_block.SWITCHES)
    gpt2 = rows["GPT-2"]
    V = len(set(load_corpus()))
    assert gpt2[0] == 24 * V + 16 * 24 + (4 * 24 * 24 + 4 * 24) + (2 * 24 * 48 + 48 + 24) + 6 * 24 + 24 * V + V
    assert rows["+ rotary positions"][0] == gpt2[0] - 16 * 24  # the position table goes, nothing else
    assert rows["+ SwiGLU (2/3 width)"][0] == gpt2[0] - (2 * 24 * 48 + 48 + 24) + 3 * 24 * 32  # F' = 32
    assert rows["+ multi-query attention"][1] == gpt2[1] // 2 == 24  # one key/value head of two
    assert rows["+ RMSNorm"][0] == gpt2[0] - 3 * 24  # three norms lose their beta
    assert len({row[3] for row in rows.values()}) == len(rows)  # every variant trained on its own
