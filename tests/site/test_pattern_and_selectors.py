"""Unit tests of the two ways an equation points into code: AST-shape patterns and line selectors."""
import ast

import pytest

from crosslink_harness import FIXTURE
from layerwise_build.crosslink.codeindex import build_index
from layerwise_build.crosslink.pattern import PatternError, compile_pattern, find_matches, matches
from layerwise_build.crosslink.selectors import SelectorError, select_lines


def _expr(text):
    return ast.parse(text, mode="eval").body


@pytest.mark.parametrize("code, expected", [
    ("X @ W + b", True),
    ('h @ params["w"] + params["b"]', True),
    ("(a + b) @ c + d", True),  # wildcards match whole sub-expressions
    ("X @ (W + b)", False),  # same operators, other shape
    ("X @ W - b", False),
    ("X * W + b", False),
    ("b + X @ W", False),  # the pattern is not commutative
])
def test_linear_pattern(code, expected):
    assert matches(compile_pattern("_ @ _ + _"), _expr(code)) is expected


@pytest.mark.parametrize("code, expected", [
    ("np.maximum(x, 0.0)", True),
    ("np.maximum(x, 0)", True),  # constants compare by value, as Python does: 0 == 0.0
    ("np.maximum(x, 1.0)", False),
    ("numpy.maximum(x, 0.0)", False),  # names other than _ must match exactly
    ("np.maximum(x, 0.0, out=y)", False),  # keyword lists must match in length
    ("np.minimum(x, 0.0)", False),
])
def test_call_pattern(code, expected):
    assert matches(compile_pattern("np.maximum(_, 0.0)"), _expr(code)) is expected


def test_attribute_pattern_and_find_matches_in_order():
    tree = ast.parse("a = x.T @ d\nb = y @ w.T\nc = z.T @ (q.T @ r)\n")
    found = find_matches(compile_pattern("_.T @ _"), tree)
    assert [(n.lineno, ast.unparse(n)) for n in found] == [(1, "x.T @ d"), (3, "z.T @ (q.T @ r)"), (3, "q.T @ r")]


def test_pattern_that_is_not_python_is_rejected_with_its_text():
    with pytest.raises(PatternError, match=r"'_ @@ _'"):
        compile_pattern("_ @@ _")


@pytest.fixture(scope="module")
def index():
    return build_index(FIXTURE, ["toy", "tests"])


def _select(index, selector, symbol="toy.linear.linear_backward"):
    function = index.function(symbol)
    return select_lines(selector, function, index.files[function.path])


def test_selector_forms(index):
    assert _select(index, "return") == [(16, 16)]
    assert _select(index, "dw=") == [(13, 13)]
    assert _select(index, "name=dw") == [(13, 13)]
    assert _select(index, "x=") == [(12, 12)]  # tuple targets count: `x, w = cache`
    assert _select(index, "dout.sum") == [(14, 14)]  # a literal substring
    assert _select(index, "return; dx=") == [(15, 15), (16, 16)]
    assert _select(index, None) == [(12, 12), (13, 13), (14, 14), (15, 15), (16, 16)]


def test_selector_skips_docstring_and_signature(index):
    # "x @ w + b" also appears in the docstring on line 6; only the code on line 7 is selected
    assert _select(index, "x @ w + b", "toy.linear.linear_forward") == [(7, 7)]
    assert _select(index, None, "toy.linear.linear_forward") == [(7, 7), (8, 8)]


def test_selector_part_that_matches_nothing_names_itself_and_the_function(index):
    with pytest.raises(SelectorError, match=r"'name=dz' matches no line of toy.linear.linear_backward"):
        _select(index, "return;name=dz")


def test_call_graph_resolves_module_attribute_and_from_imports(index):
    callers = [(c.caller, c.lineno, c.via) for c in index.call_sites("toy.norms.layernorm_forward", lambda path: True)]
    assert callers == [("tests.test_toy.test_layernorm_centres", 14, None),
                       ("tests.test_toy.test_layernorm_passed_as_a_value", 23, None),  # passed as a value
                       ("tests.test_toy.test_layernorm_passed_as_a_value", 24, None),  # and again
                       ("toy.blocks.normed", 6, "toy.norms.NORMS"),  # looked up in a table
                       ("toy.model.block_forward", 7, None)]
    assert [c.caller for c in index.call_sites("toy.linear.linear_forward", lambda path: path.startswith("toy/"))] == ["toy.model.block_forward"]
    assert index.function("toy.model.Head.logits").lineno == 14


def test_a_table_of_functions_is_a_use_only_where_the_table_is_used(index):
    """The table's own definition (toy/norms.py:12) is not a caller of the functions in it, and a use that
    unpacks one place of a tuple entry (`_, backward = linear.LAYERS[kind]`) uses only the function there."""
    assert index.call_sites("toy.norms.layernorm_forward", lambda path: path == "toy/norms.py") == []
    in_blocks = lambda path: path == "toy/blocks.py"  # noqa: E731
    assert [(c.caller, c.lineno, c.via) for c in index.call_sites("toy.linear.linear_backward", in_blocks)] == [
        ("toy.blocks.backward_of", 11, "toy.linear.LAYERS")]
    assert index.call_sites("toy.linear.linear_forward", in_blocks) == []
