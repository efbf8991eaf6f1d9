"""The attention kind against a loop-by-loop implementation written here, hand-worked entries and finite differences."""
import math

import numpy as np

from engine.examples import KINDS, run
from engine.examples.attention import layer_gradient_gap
from results import values


def naive_causal_head(q, k, v):
    """One causal head with Python loops and math.exp: position t averages the values of s = 0..t."""
    T, hs = len(q), len(q[0])
    weights = np.zeros((T, T))
    out = np.zeros((T, hs))
    for t in range(T):
        scores = [sum(q[t][j] * k[s][j] for j in range(hs)) / math.sqrt(hs) for s in range(t + 1)]
        exps = [math.exp(x - max(scores)) for x in scores]
        for s in range(t + 1):
            weights[t, s] = exps[s] / sum(exps)
            out[t] += weights[t, s] * np.array(v[s], dtype=float)
    return weights, out


def finite_difference_grads(q, k, v, dout, h=1e-6):
    arrays = {"q": np.array(q, float), "k": np.array(k, float), "v": np.array(v, float)}
    grads = {}
    for name, array in arrays.items():
        grad = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            plus, minus = {n: a.copy() for n, a in arrays.items()}, {n: a.copy() for n, a in arrays.items()}
            plus[name][index] += h
            minus[name][index] -= h
            f_plus = np.sum(naive_causal_head(plus["q"], plus["k"], plus["v"])[1] * dout)
            f_minus = np.sum(naive_causal_head(minus["q"], minus["k"], minus["v"])[1] * dout)
            grad[index] = (f_plus - f_minus) / (2 * h)
        grads[name] = grad
    return grads


def test_defaults_match_the_loop_implementation():
    inputs = KINDS["attention"].defaults()
    result = run("attention", inputs)
    weights, out = naive_causal_head(inputs["q"], inputs["k"], inputs["v"])
    np.testing.assert_allclose(values(result, "A"), weights, atol=1e-12)
    np.testing.assert_allclose(values(result, "out"), out, atol=1e-12)
    # by hand: row 0 may only look at itself, so its weight row is [1, 0, 0, 0] and its output is v0
    assert values(result, "A")[0].tolist() == [1, 0, 0, 0]
    assert values(result, "out")[0].tolist() == inputs["v"][0]
    # S[1][0] = (2 * 1 + 1 * 0) / sqrt(2) = sqrt(2)
    assert result["arithmetic"] == "S[t1, t0] = (q1 · k0) / √2 = (2 × 1 + 1 × 0) / 1.4142 = 1.4142"
    assert values(result, "M").tolist() == np.tril(np.ones((4, 4))).tolist()


def test_backward_matches_finite_differences_of_the_loop_implementation():
    inputs = KINDS["attention"].defaults()
    result = run("attention", inputs)
    expected = finite_difference_grads(inputs["q"], inputs["k"], inputs["v"], np.array(inputs["dout"], float))
    for name in ("q", "k", "v"):
        np.testing.assert_allclose(values(result, "d" + name), expected[name], atol=1e-7)
    # position 0's query meets a single key, so the softmax's gradient there is 0 and so is dq[0]
    assert values(result, "dq")[0].tolist() == [0, 0]
    np.testing.assert_allclose(values(result, "dS").sum(axis=1), 0, atol=1e-12)
    assert result["gradcheck"]["ok"]


def test_mistakes_are_shown_live():
    result = run("attention", KINDS["attention"].defaults())
    notes = result["notes"]
    assert notes[0] == "Every row of A sums to 1: 1, 1, 1, 1."
    leak = next(n for n in notes if n.startswith("Adding 1 to the last value"))
    assert "by 0 with the causal mask" in leak and "by 0 with the wrong triangle" not in leak
    after = next(n for n in notes if n.startswith("Masking after the softmax"))
    sums = [float(s) for s in after.removeprefix("Masking after the softmax instead leaves row sums of ")
            .rstrip(".").split(", ")]
    assert sums[-1] == 1 and all(s < 1 for s in sums[:-1])
    assert "x and all eight parameters" in notes[-1]


def test_the_gradient_check_covers_the_whole_layer():
    inputs = KINDS["attention"].defaults()
    layer_gap = layer_gradient_gap(np.array(inputs["q"], dtype=float), np.array(inputs["k"], dtype=float))
    check = run("attention", inputs)["gradcheck"]
    assert 0 < layer_gap <= check["gap"] < 1e-6 and check["ok"]


def test_unscaled_scores_make_the_softmax_sharper():
    # hs = 4 and one strong match: without dividing by sqrt(4) = 2 the last row's top weight grows
    q = [[0, 0, 0, 0], [2, 2, 2, 2]]
    k = [[1, 1, 1, 1], [0, 0, 0, 0]]
    result = run("attention", {"q": q, "k": k, "v": [[1, 0, 0, 0], [0, 1, 0, 0]], "dout": [[1, 1, 1, 1]] * 2})
    # row 1: scores (8 / 2, 0) = (4, 0) -> e^4 / (e^4 + 1); unscaled (8, 0) -> e^8 / (e^8 + 1)
    scaled, unscaled = math.exp(4) / (math.exp(4) + 1), math.exp(8) / (math.exp(8) + 1)
    shown = result["notes"][1].split("would be ")[1].split(":")[0].split(" instead of ")
    assert [float(v) for v in shown] == [round(unscaled, 4), round(scaled, 4)]
