"""Widget kind ``softmax``: probabilities and backward against an independent per-row ``math`` implementation."""
import math

import numpy as np

from engine.examples import KINDS, run
from results import block, values


def softmax_row(row):
    top = max(row)
    exps = [math.exp(v - top) for v in row]
    return [e / sum(exps) for e in exps]


def backward_via_jacobian(p, dp):
    # dx_j = sum_i dp_i * p_i * (delta_ij - p_j), the full Jacobian written out entry by entry.
    n = len(p)
    return [sum(dp[i] * p[i] * ((i == j) - p[j]) for i in range(n)) for j in range(n)]


def test_defaults_shift_invariance_and_overflow():
    result = run("softmax", KINDS["softmax"].defaults())
    expected = softmax_row([1.0, 2.0, 3.0])  # about [0.0900, 0.2447, 0.6652]
    np.testing.assert_allclose(values(result, "p"), [expected, expected], atol=1e-15)
    assert block(result, "p")["cells"][0] == ["0.0900", "0.2447", "0.6652"]
    assert values(result, "row_max").tolist() == [3, 1002]
    assert values(result, "shifted").tolist() == [[-2, -1, 0], [-2, -1, 0]]
    # The naive formula agrees on the small row and overflows to nan on [1000, 1001, 1002].
    naive = block(result, "naive")
    np.testing.assert_allclose(naive["values"][0], expected, atol=1e-15)
    assert naive["values"][1] == [None, None, None] and naive["cells"][1] == ["nan", "nan", "nan"]
    assert result["nonfinite"] == ["naive"]
    assert result["arithmetic"] == "p[t0, j0] = exp(1 - 3) / 1.5032 = 0.1353 / 1.5032 = 0.0900"


def test_backward_against_the_full_jacobian():
    inputs = {"x": [[0.5, -1.0, 2.0, 0.0]], "dp": [[1.0, 2.0, -1.0, 0.5]]}
    result = run("softmax", inputs)
    p = softmax_row(inputs["x"][0])
    np.testing.assert_allclose(values(result, "dx")[0], backward_via_jacobian(p, inputs["dp"][0]), atol=1e-15)
    assert abs(values(result, "dx").sum()) < 1e-15  # shift invariance seen from the gradient
    # The diagonal-only mistake keeps just dp_j * p_j * (1 - p_j): it differs from the true gradient.
    diagonal = [d * q * (1 - q) for d, q in zip(inputs["dp"][0], p)]
    np.testing.assert_allclose(values(result, "dx_diagonal")[0], diagonal, atol=1e-15)
    assert np.max(np.abs(values(result, "dx_diagonal") - values(result, "dx"))) > 0.1
    assert result["gradcheck"]["ok"]


def test_jacobian_heat_map_is_drawn():
    result = run("softmax", KINDS["softmax"].defaults())
    (plot,) = result["plots"]
    assert plot["svg"].startswith("<svg") and plot["svg"].count("<rect") == 9  # a 3 x 3 grid
