"""The Linear page: its inline values are the source documents' worked example, multiplied out by hand."""
from page_values import shown_texts

SHOWN = shown_texts("layers/linear.md")


def test_the_worked_example_forward_and_backward():
    # X = [[1, 2], [0, 1]], W = [[1, 0, 2], [-1, 1, 0]], b = [0, 1, -1], dY = [[1, 0, 1], [0, 2, -1]]
    # XW row 0: [1*1 + 2*-1, 1*0 + 2*1, 1*2 + 2*0] = [-1, 2, 2]; row 1: [0 - 1, 0 + 1, 0 + 0] = [-1, 1, 0]
    # dW = X.T @ dY; db = column sums of dY; dX = dY @ W.T (row 0: [1 + 2, -1 + 0] = [3, -1])
    assert SHOWN[:5] == [
        "[[-1.0, 2.0, 2.0], [-1.0, 1.0, 0.0]]",
        "[[-1.0, 3.0, 1.0], [-1.0, 2.0, -1.0]]",
        "[[1.0, 0.0, 1.0], [2.0, 2.0, 1.0]]",
        "[1.0, 2.0, 0.0]",
        "[[3.0, -1.0], [-2.0, 2.0]]",
    ]


def test_formula_beside_central_differences():
    # the same products by hand, and central differences of the linear function sum(Y * dY) are exact up to rounding
    by_hand = ["[[1.0, 0.0, 1.0], [2.0, 2.0, 1.0]]", "[1.0, 2.0, 0.0]", "[[3.0, -1.0], [-2.0, 2.0]]"]
    six_places = ["[[1.000000, 0.000000, 1.000000], [2.000000, 2.000000, 1.000000]]", "[1.000000, 2.000000, 0.000000]",
                  "[[3.000000, -1.000000], [-2.000000, 2.000000]]"]
    assert SHOWN[5:] == [text for pair in zip(by_hand, six_places) for text in pair]
