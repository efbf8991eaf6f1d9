"""Blocks whose values are whole numbers by nature (masks, one-hot rows, ids, counts) show as 1, 0, 12; every
other block keeps four decimals, even where its values happen to be whole."""
import numpy as np

from engine.examples import run
from engine.examples.fmt import format_integer
from engine.examples.kind import Block, Dim, Kind, Operand, Result


def test_format_integer():
    assert [format_integer(v) for v in (True, False, np.int64(12), -3, np.uint8(0))] == ["1", "0", "12", "-3", "0"]


def _counting_kind():
    """x (n,) floats -> a mask, counts, and x itself (whole numbers by chance, so still four decimals)."""
    def compute(x):
        return Result(blocks=(Block("positive", "x > 0", x > 0, ("n",)),
                              Block("count", "how many are positive", np.array([np.sum(x > 0)]), ("one",)),
                              Block("x", "x as given", x, ("n",))))

    return Kind(name="counting", title="counting", dims=(Dim("n", "i"), Dim("one", "k", 1, 1, False)),
                inputs=(Operand("x", "numbers", ("n",), [2, -1, 0, 12]),), compute=compute)


def test_bool_and_integer_blocks_show_whole_numbers_floats_keep_decimals():
    blocks = {b["name"]: b for b in _counting_kind().run({"x": [2, -1, 0, 12]})["blocks"]}
    assert blocks["positive"]["cells"] == ["1", "0", "0", "1"]  # 2 > 0, -1, 0 not, 12 > 0
    assert blocks["count"]["cells"] == ["2"]
    assert blocks["x"]["cells"] == ["2.0000", "-1.0000", "0.0000", "12.0000"]
    assert blocks["positive"]["values"] == [1.0, 0.0, 0.0, 1.0]  # the raw values stay numbers


def _cells(result, name):
    return next(b["cells"] for b in result["blocks"] if b["name"] == name)


def test_one_hot_rows_of_the_cross_entropy_example():
    # targets [0, 3, 1] over V = 4: a 1 in column 0, then 3, then 1
    result = run("cross_entropy", {"logits": [[1, 2, 3, 4]] * 3, "targets": [0, 3, 1]})
    assert _cells(result, "onehot") == [["1", "0", "0", "0"], ["0", "0", "0", "1"], ["0", "1", "0", "0"]]


def test_the_causal_mask_of_the_attention_example():
    q = [[1, 0], [0, 1], [1, 1]]  # T = 3: position t may attend to s <= t
    result = run("attention", {"q": q, "k": q, "v": q, "dout": q})
    assert _cells(result, "M") == [["1", "0", "0"], ["1", "1", "0"], ["1", "1", "1"]]


def test_relus_mask_of_the_activations_example():
    x = [[-2, -0.5, 0.5, 2], [-1, 0.25, 0, 3]]  # 0 itself is not > 0
    result = run("activations", {"x": x, "dy": [[1] * 4] * 2})
    assert _cells(result, "mask") == [["0", "0", "1", "1"], ["0", "1", "0", "1"]]


def test_dropouts_mask_agrees_with_its_output():
    # x has no zero, so an entry is kept exactly where y = x * m / (1 - p) is not zero
    result = run("dropout", {"x": [[1.0, -2.0, 3.0, 0.5]], "dy": [[1.0] * 4], "p": 0.5, "seed": 9})
    mask = _cells(result, "mask")[0]
    y = next(b["values"] for b in result["blocks"] if b["name"] == "y")[0]
    assert set(mask) <= {"0", "1"} and mask == ["1" if v != 0 else "0" for v in y]
