"""The LayerNorm page: its inline values against the source documents' worked numbers and a backward worked by hand."""
import math

from page_values import shown_after

PAGE = "layers/layernorm.md"


def test_the_worked_examples():
    # (1, 2, 3, 4): mean 2.5, deviations (-1.5, -0.5, 0.5, 1.5), biased variance 1.25; x_hat = dev / sqrt(1.25)
    # = (-1.3416, -0.4472, 0.4472, 1.3416); gamma 2, beta 1 -> (-1.6833, 0.1056, 1.8944, 3.6833) ~ the source documents'
    # (-1.68, 0.11, 1.89, 3.68). (2, 4, 6, 8): mean 5, variance (9 + 1 + 1 + 9) / 4 = 5, same x_hat; gamma
    # (1, 1, 2, 2), beta (0, 0, 1, 1) -> (-1.3416, -0.4472, 1.8944, 3.6833); dividing by d - 1 = 3 instead gives
    # the source documents' wrong (-1.162, -0.387, 0.387, 1.162).
    first = shown_after(PAGE, "Take $x = (1, 2, 3, 4)$", 4)
    assert first == ["2.5", "1.25", "[-1.3416, -0.4472, 0.4472, 1.3416]", "[-1.6833, 0.1056, 1.8944, 3.6833]"]
    second = shown_after(PAGE, "Now $x = (2, 4, 6, 8)$", 9)
    assert [second[0], second[2], second[4], second[7], second[8]] == [
        "5.0", "5.0", "[-1.3416, -0.4472, 0.4472, 1.3416]", "[-1.3416, -0.4472, 1.8944, 3.6833]",
        "[-1.162, -0.387, 0.387, 1.162]",
    ]
    seed_rounded = [-1.68, 0.11, 1.89, 3.68]
    shown = [float(v) for v in first[3].strip("[]").split(", ")]
    assert all(abs(a - b) <= 0.005 for a, b in zip(shown, seed_rounded))


def test_the_backward_of_one_upstream_entry():
    # dy = (1, 0, 0, 0), gamma 1: g = dy, mean(g) = 1/4, mean(g * x_hat) = x_hat_0 / 4, and x_hat_i * x_hat_0 is
    # dev_i * dev_0 / 1.25 = (1.8, 0.6, -0.6, -1.8), so dx = (g - 1/4 - (0.45, 0.15, -0.15, -0.45)) / sqrt(1.25 + eps)
    rstd = 1 / math.sqrt(1.25 + 1e-5)
    by_hand = [v * rstd for v in (0.3, -0.4, -0.1, 0.2)]
    shown = shown_after(PAGE, "For the backward, send", 2)
    assert shown[0] == "[" + ", ".join(f"{v:.4f}" for v in by_hand) + "]"
    assert shown[1] == "0.0000"  # the entries of dx sum to zero


def test_the_parameter_count_of_the_default_model():
    # two LayerNorms per block and one final, each 2d: (2 * 2 + 1) * 2 * 32 = 320
    assert shown_after(PAGE, "The engine's `norms.layernorm_param_count(2, 32)` gives", 1) == ["320"]


def test_unbiased_variance_cache_sizes_and_a_bigger_model():
    # deviations of (2, 4, 6, 8) from 5: (-3, -1, 1, 3), squares add up to 20; 20 / 3 with d - 1
    assert shown_after("layers/layernorm.md", "from a\nvariance of $20 / 3$", 1) == [f"{20 / 3:.3f}"] == ["6.667"]
    # a default training batch: B = 16 windows of T = 16 tokens, d = 32 features
    assert shown_after("layers/layernorm.md", "That costs memory", 2) == [f"{16 * 16 * 32:,}", f"{16 * 16:,}"]
    # 24 blocks: 2 * 24 + 1 = 49 norms of 2 * 1024 numbers
    assert shown_after("layers/layernorm.md", "24 pre-LN blocks", 1) == [f"{49 * 2048:,}"] == ["100,352"]
