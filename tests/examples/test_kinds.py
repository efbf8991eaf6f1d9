"""Widget kinds: worked numbers from the source documents and by hand, shape-link messages, and the JSON contract."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.errors import LayerwiseError, ShapeError
from engine.examples import KINDS, finish_check_json, get_kind, run, run_json
from engine.examples.kind import Block, Dim, Kind, Operand, Result
from results import block


def test_linear_defaults_give_the_worked_example():
    result = run("linear", KINDS["linear"].defaults())
    # Y = X @ W + b with X = [[1, 2], [0, 1]], W = [[1, 0, 2], [-1, 1, 0]], b = [0, 1, -1], by hand:
    assert block(result, "Y")["values"] == [[-1, 3, 1], [-1, 2, -1]]
    assert block(result, "dW")["values"] == [[1, 0, 1], [2, 2, 1]]
    assert block(result, "dX")["values"] == [[3, -1], [-2, 2]]
    assert block(result, "db")["values"] == [1, 2, 0]
    assert block(result, "Y")["cells"][0] == ["-1.0000", "3.0000", "1.0000"]
    assert result["arithmetic"] == "Y[t0, j0] = 1 × 1 + 2 × (-1) + 0 = -1.0000"
    assert result["gradcheck"]["ok"] and result["gradcheck"]["gap"] < 1e-8


def test_layernorm_matches_the_worked_example():
    inputs = KINDS["layernorm"].defaults()
    result = run("layernorm", inputs)
    # x = (1, 2, 3, 4): mean 2.5, variance 1.25; gamma 2, beta 1 gives about (-1.68, 0.11, 1.89, 3.68).
    assert block(result, "mean")["values"][0] == 2.5
    assert block(result, "var")["values"][0] == 1.25
    np.testing.assert_allclose(block(result, "y")["values"][0], [-1.68, 0.11, 1.89, 3.68], atol=0.006)
    # (10, 20, 30, 40) is ten times the first row: the same x_hat, up to eps.
    x_hat = np.array(block(result, "x_hat")["values"])
    np.testing.assert_allclose(x_hat[1], x_hat[0], atol=1e-5)
    np.testing.assert_allclose(np.sum(block(result, "dx")["values"], axis=1), 0, atol=1e-12)
    assert result["gradcheck"]["ok"]


def test_embedding_shows_the_overwrite_mistake():
    result = run("embedding", KINDS["embedding"].defaults())
    # ids [2, 0, 2], upstream rows [1, 1], [2, 2], [3, 3]: row 2 must get [4, 4]; overwriting keeps [3, 3].
    assert block(result, "out")["values"] == [[0.5, 0.6], [0.1, 0.2], [0.5, 0.6]]
    assert block(result, "dE")["values"] == [[2, 2], [0, 0], [4, 4]]
    assert block(result, "dE_overwritten")["values"] == [[2, 2], [0, 0], [3, 3]]
    assert result["notes"] == ["Row v2 of dE loses updates with dE[ids] += dout: its id is repeated in ids."]
    two = run("embedding", {**KINDS["embedding"].defaults(), "ids": [0, 2, 0, 2], "dout": [[1, 1], [2, 2], [3, 3], [4, 4]]})
    assert two["notes"] == ["Rows v0 and v2 of dE lose updates with dE[ids] += dout: their ids are repeated in ids."]
    distinct = run("embedding", {**KINDS["embedding"].defaults(), "ids": [2, 0, 1]})
    assert block(distinct, "dE")["values"] == block(distinct, "dE_overwritten")["values"]


def test_shape_mismatch_names_both_operands_and_shapes():
    inputs = {**KINDS["linear"].defaults(), "X": [[1, 2, 3], [4, 5, 6]]}
    with pytest.raises(ShapeError) as caught:
        run("linear", inputs)
    assert str(caught.value) == ("linear example: X has shape (2, 3) but W has shape (2, 3): "
                                 "columns of X must equal rows of W (a)")


@pytest.mark.parametrize("kind, name, value, message", [
    ("linear", "X", [[1, 2], [0, float("nan")]], "X[t1, k1] is not a finite number (nan)"),
    ("linear", "b", [0, float("inf"), 1], "b[j1] is not a finite number (inf)"),
    ("linear", "X", [[1, 2], [0]], "X must be a matrix of numbers"),
    ("linear", "X", [[1, "a"], [0, 1]], "X must be a matrix of numbers"),
    ("linear", "b", [[0, 1, -1]], "b must be a list ('c',), got shape (1, 3)"),
    ("linear", "X", [[1] * 9, [1] * 9], "X has shape (2, 9), but its columns (a) must number between 1 and 8"),
    ("embedding", "ids", [2, 0.5, 1], "ids[t1] must be a whole number, got 0.5"),
    ("embedding", "ids", [2, 0, 3], "ids must lie in [0, 3) for a vocabulary of 3, got 3"),
])
def test_bad_values_are_named(kind, name, value, message):
    with pytest.raises(LayerwiseError) as caught:
        run(kind, {**KINDS[kind].defaults(), name: value})
    assert message in str(caught.value)


def test_unknown_and_missing_inputs_and_kinds():
    with pytest.raises(LayerwiseError, match="unknown input 'Z'; the inputs are X, W, b, dY"):
        run("linear", {**KINDS["linear"].defaults(), "Z": [1]})
    with pytest.raises(LayerwiseError, match="input 'dY' is missing"):
        run("linear", {k: v for k, v in KINDS["linear"].defaults().items() if k != "dY"})
    with pytest.raises(LayerwiseError, match="unknown widget kind 'nope'"):
        get_kind("nope")


def test_run_json_reports_errors_and_flags_non_finite_results():
    assert json.loads(run_json("linear", '{"X": 1}'))["error"].startswith("linear example: input 'W' is missing")
    huge = {**KINDS["linear"].defaults(), "X": [[1e308, 1e308], [0, 1]], "W": [[1e308, 0, 0], [1, 1, 1]]}
    result = json.loads(run_json("linear", json.dumps(huge)))
    assert "Y" in result["nonfinite"] and block(result, "Y")["cells"][0][0] == "inf"
    assert block(result, "Y")["values"][0][0] is None
    assert result["gradcheck"]["pending"] is True
    assert json.loads(finish_check_json())["ok"] is False


def test_the_browser_gets_the_gradient_check_after_the_outputs():
    inputs = KINDS["layernorm"].defaults()
    first = json.loads(run_json("layernorm", json.dumps(inputs)))
    assert first["gradcheck"] == {"gap": None, "ok": None, "pending": True, "text": "Gradient check: running…"}
    assert json.loads(finish_check_json()) == run("layernorm", inputs)["gradcheck"]
    assert finish_check_json() == "null"  # run once; a later call has nothing left to check


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_runs_its_defaults_into_json(name):
    kind = KINDS[name]
    result = run(name, kind.defaults())
    json.dumps(result, allow_nan=False)  # raises on NaN/inf: the browser gets strict JSON
    json.dumps(kind.spec(), allow_nan=False)
    assert result["blocks"], f"{name} shows nothing"
    if result["gradcheck"] is not None:
        assert result["gradcheck"]["ok"], result["gradcheck"]["text"]
    for b in result["blocks"]:
        assert list(np.shape(b["values"])) == b["shape"]
        assert set(b["dims"]) <= set(kind.spec()["dims"])


def test_declared_bounds_are_checked_inclusively_and_named():
    kind = Kind(name="bounded", title="t", dims=(Dim("n", "i"),),
                inputs=(Operand("rate", "a rate", (), 0.5, bounds=(0.0001, 0.05)),
                        Operand("v", "a vector", ("n",), [1, 2], bounds=(0, 2))),
                compute=lambda rate, v: Result(blocks=(Block("v", "v", v, ("n",)),)))
    assert kind.spec()["inputs"][0]["bounds"] == [0.0001, 0.05]
    kind.bind({"rate": 0.05, "v": [0, 2]})  # both ends allowed
    kind.bind({"rate": 0.0001, "v": [0, 2]})
    with pytest.raises(LayerwiseError, match=r"^bounded example: rate must be from 0.0001 to 0.05, got 1.27$"):
        kind.bind({"rate": 1.27, "v": [1, 1]})
    with pytest.raises(LayerwiseError, match=r"^bounded example: v\[i1\] must be from 0 to 2, got -0.5$"):
        kind.bind({"rate": 0.01, "v": [1, -0.5]})
    with pytest.raises(LayerwiseError, match=r"^input x: bounds must be \(low, high\) with low < high, got \(1, 1\)$"):
        Kind(name="empty range", title="t", dims=(), inputs=(Operand("x", "x", (), 1.0, bounds=(1, 1)),),
             compute=lambda x: Result(blocks=()))


def test_every_default_lies_within_its_bounds_and_chaotic_inputs_are_bounded():
    for kind in KINDS.values():
        kind.bind(kind.defaults())  # would raise naming the input
    lr = next(op for op in KINDS["training"].inputs if op.name == "lr")
    assert lr.bounds is not None and lr.bounds[1] <= 0.05  # above it the CPython and Pyodide runs drift apart


def test_the_worker_imports_only_the_kinds_it_runs():
    # A fresh interpreter: this one has imported every kind already.
    script = ("import sys, engine.examples as e; e.run_json('linear', '{\"X\": [[1]], \"W\": [[2]], \"b\": [0], "
              "\"dY\": [[1]]}'); print(sorted(m for m in sys.modules if m.startswith('engine.examples.')))")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "['engine.examples.fmt', 'engine.examples.kind', 'engine.examples.linear']"
    assert sorted(KINDS) == sorted(p.stem for p in Path(KINDS["linear"].compute.__code__.co_filename).parent.glob(
        "*.py") if p.stem not in {"__init__", "kind", "fmt", "svg"})


@pytest.mark.parametrize("kind, inputs", [
    ("rmsnorm", {"x": [[1, 2, 3, 4], [-3, -1, 1, 3]], "gamma": [1e308] * 4, "dy": [[1, 0, -1, 2], [0.5, 1, 0, -1]]}),
    ("dropout", {"x": [[1e-308, 1e308, 1, 1e200]], "dy": [[1e308, 1, 5e-324, 1e15]], "p": 0, "seed": 1000000}),
], ids=["rmsnorm gamma 1e308", "dropout extreme values"])
def test_valid_extreme_inputs_give_a_result_not_a_python_error(kind, inputs):
    # the review's F8: the widget's message line showed "OverflowError: ..." and "ValueError: math domain error"
    result = json.loads(run_json(kind, json.dumps(inputs)))
    assert "error" not in result and result["plots"]
