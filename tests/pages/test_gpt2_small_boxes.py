"""The "In GPT-2 small" box on each layer page: every number worked out here from GPT-2 small's published sizes
(V 50,257, T 1,024, d 768, 12 heads, 12 blocks, MLP width 3,072; 124,439,808 parameters with the head tied),
independently of the engine's closed forms that the page itself calls."""
import math

import numpy as np
import pytest
from page_values import REPO, page_text, shown_after

BOX = '!!! info "In GPT-2 small"'
V, T, D, H, L, F = 50257, 1024, 768, 12, 12, 3072
PUBLISHED = 124_439_808
ATTENTION_PER_BLOCK = 4 * D * D + 4 * D  # q, k, v, output: a d x d matrix and a bias each
MLP_PER_BLOCK = D * F + F + F * D + D


def box(page, count):
    return shown_after(f"layers/{page}.md", BOX, count)


@pytest.mark.parametrize("page", ["activations", "attention", "cross-entropy", "dropout", "embedding",
                                  "initialisation", "layernorm", "linear", "residual", "rmsnorm", "softmax"])
def test_every_layer_page_has_one_box_with_the_same_title(page):
    text = page_text(f"layers/{page}.md")
    assert text.count(BOX) == 1
    assert text.index(BOX) < text.index("\n## Implementation\n")  # the bridge closes the shapes section


def test_layernorm():
    # 2 norms per block + 1 final; eps 1e-5 (GPT-2's and PyTorch's); sqrt(1e-5) = 0.00316
    assert box("layernorm", 5) == [str(D), "32", str(2 * L + 1), "1e-05", f"{math.sqrt(1e-5):.4f}"]
    assert "(#gpt2-small-layernorm-parameters)" in page_text("layers/layernorm.md")


def test_rmsnorm():
    # 25 norms: LayerNorm 2d each = 38,400; RMSNorm d each = 19,200
    assert box("rmsnorm", 3) == [f"{25 * 2 * D:,}", f"{25 * D:,}", "25"]


def test_initialisation():
    xavier_768 = math.sqrt(2 / (D + D))  # = 1 / sqrt(768)
    xavier_32 = math.sqrt(2 / 64)  # = 1 / sqrt(32)
    shown = box("initialisation", 17)
    assert shown[:8] == [
        "0.02", f"{0.02 / math.sqrt(24):.4f}", "24", f"{1 / math.sqrt(768):.3f}", f"{xavier_768 / 0.02:.1f}",
        "32", f"{1 / math.sqrt(32):.3f}", f"{xavier_32 / 0.02:.1f}"]
    assert (f"{0.02 / math.sqrt(24):.4f}", f"{xavier_768:.3f}", f"{xavier_32 / 0.02:.1f}") == ("0.0041", "0.036", "8.8")
    # two matrices in series at d = 32, F = 128, L = 2: the second GPT-2 matrix has 0.02 / sqrt(4) = 0.01
    values_path = (xavier_32 / 0.02) * (xavier_32 / 0.01)  # 8.84 * 17.7 = 156.25
    ff_matrices = (math.sqrt(2 / 160) / 0.02) * (math.sqrt(2 / 160) / 0.01)  # 5.59 * 11.2 = 62.5
    assert shown[8] == f"{values_path:.0f}" == "156" and shown[15] == f"{ff_matrices:.0f}"
    # measured with init_params (sampling noise of a few percent): the values path against 32 * 0.02 * 0.01 = 0.0064
    # and 1; the feed-forward ratio between that product and "about a hundred" because GELU passes more of the
    # larger Xavier inputs (test_teaching_measures.py checks the stds against an integral over GELU)
    gpt2_values, xavier_values, values_ratio = map(float, shown[9:12])
    assert gpt2_values == pytest.approx(0.0064, rel=0.05) and xavier_values == pytest.approx(1.0, rel=0.05)
    assert values_ratio == pytest.approx(values_path, rel=0.05)
    gpt2_ff, xavier_ff, ff_ratio = map(float, shown[12:15])
    assert ff_ratio == pytest.approx(xavier_ff / gpt2_ff, rel=0.02) and ff_matrices < ff_ratio < values_path
    assert shown[16] == "6.4e+08"
    assert 1.5**50 == pytest.approx(6.376e8, rel=1e-3)  # shown as 6.4e+08


def test_residual():
    assert box("residual", 4) == ["12", "24", "0.014", "23"]
    assert 0.7**12 == pytest.approx(0.0138, abs=1e-4) and 1.3**12 == pytest.approx(23.3, abs=0.05)
    assert r"$0.02 / \sqrt{24}$" in page_text("layers/residual.md")  # 2 additions per block, 12 blocks


def test_embedding_and_weight_tying():
    untied = PUBLISHED + V * D  # a separate d x V head matrix (still without a bias)
    assert box("embedding", 7) == [f"{V:,}", str(D), f"{V * D:,}", f"{T:,}", f"{T * D:,}", f"{V * D:,}",
                                   f"{100 * V * D / untied:.0f}"]
    assert (f"{V * D:,}", f"{100 * V * D / untied:.0f}") == ("38,597,376", "24")


def test_dropout():
    assert box("dropout", 1) == ["0.0"]  # the engine's default rate, as in nanoGPT's pre-training
    assert "does **not** drop attention weights" in page_text("layers/dropout.md")


def test_attention():
    assert box("attention", 6) == ["12", "64", "0.125", "1,024", f"{L * H * T * T:,}", f"{ATTENTION_PER_BLOCK:,}"]
    assert (L * H * T * T, ATTENTION_PER_BLOCK) == (150_994_944, 2_362_368)
    masked = T * (T - 1) // 2  # above the diagonal: "nearly half"
    assert 0.49 < masked / (T * T) < 0.5


def test_cross_entropy():
    assert box("cross-entropy", 4) == [f"{V:,}", f"{math.log(V):.2f}", f"{T:,}", f"{T * V:,}"]
    assert box("cross-entropy", 2) == ["50,257", "10.82"] and T * V == 51_463_168


def test_linear():
    linear = L * (ATTENTION_PER_BLOCK + MLP_PER_BLOCK)
    assert box("linear", 2) == [f"{linear:,}", f"{100 * linear / PUBLISHED:.0f}"] == ["85,017,600", "68"]


def test_activations():
    assert box("activations", 4) == [str(D), f"{F:,}", f"{L * F:,}", f"{MLP_PER_BLOCK:,}"]
    assert F == 4 * D


def test_softmax():
    rows, logits, one, row_of_equals = box("softmax", 4)
    assert (rows, logits) == ("1,024", "50,257")
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(float(one) + 0.1))) and np.isfinite(np.exp(np.float32(float(one) - 0.1)))
        # the denominator of a row of V equal logits, summed in float32
        def denominator(z):
            return np.exp(np.full(V, z, dtype=np.float32)).sum(dtype=np.float32)
        assert np.isinf(denominator(float(row_of_equals) + 0.1))
        assert np.isfinite(denominator(float(row_of_equals) - 0.1))


def test_the_model_page_table():
    shown = shown_after("model/model.md", BOX, 19)
    d, T_, F_, L_ = 32, 16, 128, 2  # the default GPTConfig
    V_ = len(set((REPO / "engine" / "data" / "moby-dick.txt").read_text(encoding="utf-8")))  # the corpus's characters
    mine = [V_ * d, T_ * d, L_ * (4 * d * d + 4 * d), L_ * (2 * d * F_ + F_ + d), (2 * L_ + 1) * 2 * d, d * V_ + V_]
    gpt2 = [V * D, T * D, L * ATTENTION_PER_BLOCK, L * MLP_PER_BLOCK, 25 * 2 * D, D * V + V]
    pairs = [f"{n:,}" for pair in zip(mine, gpt2) for n in pair]
    blocks_share = 100 * (mine[2] + mine[3]) / sum(mine)  # 25,152 of 31,054
    assert shown == pairs + [f"{sum(mine):,}", f"{sum(gpt2):,}", f"{PUBLISHED:,}", str(V_), f"{blocks_share:.0f}",
                             f"{100 * V * D / PUBLISHED:.0f}", "68"]
    assert (f"{blocks_share:.0f}", f"{100 * V * D / PUBLISHED:.0f}") == ("81", "31")


def test_the_sizes_typed_in_the_model_box_are_gpt2_small():
    from engine import config
    sizes = config.GPT2_SMALL
    assert (sizes.vocab_size, sizes.seq_len, sizes.emb_dim, sizes.num_heads, sizes.ff_dim, sizes.num_layers) == (
        V, T, D, H, F, L)
    assert ("$V$ = 50,257,\n    $T$ = 1,024, $d$ = 768, 12 heads, $F$ = 3,072, 12 blocks)"
            in page_text("model/model.md"))


def test_page_tests_of_the_tiny_model_skip_only_the_box():
    from page_values import without_gpt2_boxes
    text = "before\n\n" + BOX + "\n    one [= 1 =]\n\n    two\n\nafter [= 2 =]\n"
    assert without_gpt2_boxes(text) == "before\n\nafter [= 2 =]\n"


def test_the_sizes_typed_in_the_boxes():
    assert 3 * D == 2304 and r"$768 \times 2304$ matrix, `c_attn`" in page_text("layers/linear.md")
    assert F == 3072 and r"$768 \times 3072$ and $3072 \times 768$" in page_text("layers/linear.md")
    assert D // H == 64 and r"$1/\sqrt{64}$" in page_text("layers/attention.md")
    assert r"$1024 \times 1024$ weight matrix" in page_text("layers/attention.md")
    init_page = page_text("layers/initialisation.md")
    assert r"$0.02 / \sqrt{2 \cdot 12}$" in init_page and r"$1/\sqrt{768}$" in init_page
    assert "about a hundred times\n    quieter" in init_page and "nine times" not in init_page
    assert 50_000 < V < 51_000 and "With fifty thousand exponentials" in page_text("layers/softmax.md")


def test_the_model_box_compute_paragraph():
    shown = shown_after("model/model.md", "**What a trained token costs.**", 7)
    matrices = L * (4 * D * D + 2 * D * F) + D * V  # the tied head is still a d x V product per token
    weights, attention = 6 * matrices, 12 * L * T * D  # forward 2 per entry and 4 T d per block, times 3 to train
    assert shown == [f"{matrices:,}", f"{weights / 1e6:,.0f}", f"{attention / 1e6:,.0f}",
                     f"{100 * attention / (weights + attention):.0f}", f"{matrices / (2 * L * D):,.0f}",
                     f"{L * H * T * T:,}",
                     f"{matrices / (L * D):,.0f}"]  # Kaplan's count: 6N = 6 L T d at twice the context
    assert shown[:2] == ["123,532,032", "741"] and L * H * T * T > PUBLISHED  # more weights than parameters
    assert shown[4] == "6,702" and shown[6] == "13,404"
