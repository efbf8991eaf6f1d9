"""The KV-cache part of the training page: its GPT-2 small numbers worked out here from the published sizes
(T 1,024, d 768, 12 blocks, MLP width 3,072, V 50,257), independently of the engine's closed forms."""
from page_values import page_text, shown_after

T, D, L, F, V = 1024, 768, 12, 3072, 50257
PAGE = "model/training.md"


def test_gpt2_small_cache_memory_and_work():
    per_position = L * (4 * D * D + 2 * D * F) + D * V  # projections and MLP in every block, then the head
    full = T * per_position + L * 2 * T * T * D  # all 1,024 positions and the whole 1,024 x 1,024 scores
    cached = per_position + L * 2 * T * D  # one position, one row of scores
    numbers = 2 * L * T * D  # a key and a value of 768 numbers, per position and block
    assert shown_after(PAGE, '!!! info "In GPT-2 small"', 6) == [
        "1,024", "18,874,368", "72", f"{full / 1e9:.1f}", f"{cached / 1e6:.0f}", f"{full / cached:,.0f}"]
    assert numbers * 4 == 72 * 2**20  # float32: exactly 72 MiB
    assert (f"{full / 1e9:.1f}", f"{cached / 1e6:.0f}") == ("145.8", "142")


def test_the_section_says_where_the_cache_stops_helping():
    text = page_text(PAGE)
    assert "### Generating with a KV cache" in text and "**Past `seq_len`.**" in text
    assert text.count('!!! info "In GPT-2 small"') == 1
