"""Unit tests of inline values (`[= expr:fmt =]`) and of shape tables, with expectations worked out by hand."""
import numpy as np
import pytest

from layerwise_build.crosslink.fences import display_math_outside_fences, scan
from layerwise_build.crosslink.shapes import ShapeError, letter_values, shape_rows
from layerwise_build.crosslink.values import evaluate, render_values, split_field

SCOPE = {"np": np}


@pytest.mark.parametrize("field, expected", [
    ("x:.4f", ("x", ".4f")),
    ("a[1:3]:.2f", ("a[1:3]", ".2f")),  # the slice's colon is inside brackets
    ("d['k:v']", ("d['k:v']", "")),  # and this one inside a string
    ("len(s):,", ("len(s)", ",")),
    ("n", ("n", "")),
])
def test_split_field(field, expected):
    assert split_field(field) == expected


def test_arrays_are_formatted_entry_by_entry():
    assert evaluate("np.array([[1, 2], [3, 4]]) / 4:.2f", SCOPE)[2] == "[[0.25, 0.50], [0.75, 1.00]]"
    assert evaluate("np.float64(2) ** 10:,", SCOPE)[2] == "1,024.0"


def test_a_failing_value_is_reported_with_its_expression():
    problems = []
    out = render_values("Value [= 1 / 0:.2f =].\n", SCOPE, problems.append)
    assert problems == ["inline value [= 1 / 0:.2f =] failed: ZeroDivisionError: division by zero"]
    assert "value failed" in out


def test_values_in_code_are_left_verbatim():
    page = "A [= 2 + 3 =] and `[= 2 + 3 =]`.\n\n```python\nx = '[= 2 + 3 =]'\n```\nB [= 2 * 3 =]\n"
    out = render_values(page, SCOPE, pytest.fail)
    assert out.count(">5</span>") == 1 and "`[= 2 + 3 =]`" in out and "x = '[= 2 + 3 =]'" in out
    assert ">6</span>" in out  # the line right after a closing fence is prose again


def test_fence_scan_skips_fences_shown_inside_longer_fences():
    page = '````markdown\n```equation id="shown"\nx\n```\n````\n\n```equation id="real"\ny\n```\n'
    assert [(f.name, f.attrs, f.lineno, f.end_lineno) for f in scan(page)] == [
        ("markdown", {}, 1, 5), ("equation", {"id": "real"}, 7, 9)]


class _Config:
    seq_len, emb_dim, num_heads, ff_dim, num_layers = 16, 32, 4, 128, 2


def test_shapes_from_the_default_sizes():
    rows = shape_rows("qkv: (T, 3*d)\nheads: (H, T, hs)\nlogits: (T, V)\nb: (F,)\n", letter_values(_Config()))
    assert [(n, s, v) for n, s, v, _ in rows] == [
        ("qkv", "(T, 3 * d)", "(16, 96)"), ("heads", "(H, T, hs)", "(4, 16, 8)"),
        ("logits", "(T, V)", "(16, V)"), ("b", "(F,)", "(128,)")]


class _Settings:
    batch_size = 5


def test_batch_letter_comes_from_the_training_settings():
    rows = shape_rows("x: (B, T, d)\nflat: (B*T, d)\n", letter_values(_Config(), _Settings()))
    assert [(s, v) for _, s, v, _ in rows] == [("(B, T, d)", "(5, 16, 32)"), ("(B * T, d)", "(80, 32)")]
    with pytest.raises(ShapeError, match="B needs the training defaults"):
        shape_rows("x: (B, T)", letter_values(_Config()))


@pytest.mark.parametrize("body, message", [
    ("x: (T, K)", "unknown size letter 'K'"),
    ("x (T, d)", "is not `name: (T, d)`"),
    ("x: (T, d", "is not a tuple like (T, d)"),
    ("x: (T, d ** 2)", "line 1 of the fence (x): size 'd ** 2' is not arithmetic the shapes table knows: it allows"),
    ("x: (T, d)\n\ny: (T, d / 3)", "line 3 of the fence (y): size 'd / 3' is 32/3, not a whole number"),
    ("x: (T, d // (H - 4))", "size 'd // (H - 4)' divides by zero"),
])
def test_bad_shape_lines_are_rejected_by_name(body, message):
    with pytest.raises(ShapeError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        shape_rows(body, letter_values(_Config()))


def test_exact_division_is_a_size():
    rows = shape_rows("half: (T, hs / 2)\nrounded: (d // 3,)\n", letter_values(_Config()))
    assert [(s, v) for _, s, v, _ in rows] == [("(T, hs / 2)", "(16, 4)"), ("(d // 3,)", "(10,)")]


def test_display_math_must_be_an_equation_fence():
    page = "Inline $x$ is fine.\n\n$$\ny = x\n$$\n\n```equation id=\"e\"\n\\[ y \\]\n```\n\n  \\[ z \\]\n"
    assert display_math_outside_fences(page) == [3, 11]  # the opening $$ (not the closing one) and the \\[
