"""What a learner reads: messages word for word, the marked matrices worked by hand, their errors' lines."""
import numpy as np

import engine
import engine.norms
from engine import exercises

LAYERNORM = exercises.get("layernorm-forward")


def grade(source, exercise_id="layernorm-forward"):
    return exercises.grade(exercise_id, source)


def test_an_exception_shows_its_type_message_and_the_learners_line():
    source = ("def layernorm_forward(x, gamma, beta, eps=1e-5):\n"
              "    mean = x.mean(axis=-1, keepdims=True)\n"
              "    return gamma * (x - mean) / spread + beta\n")
    result = grade(source)
    assert result["error"] == {"type": "NameError", "message": "name 'spread' is not defined", "line": 3,
                               "code": "return gamma * (x - mean) / spread + beta"}
    assert result["failure"]["message"] == "`layernorm_forward` raised NameError on a 2×4 input worked by hand."
    assert result["failure"]["inputs"][0] == {"name": "x", "cells": [["1.0000", "2.0000", "3.0000", "4.0000"],
                                                                     ["2.0000", "-2.0000", "0.0000", "4.0000"]]}
    assert "Traceback" not in str(result) and "_grader" not in str(result)


def test_an_exception_inside_numpy_points_at_the_learners_call():
    source = ("def layernorm_forward(x, gamma, beta, eps=1e-5):\n"
              "    y = x @ gamma[:3]\n"
              "    return y\n")
    error = grade(source)["error"]
    assert error["type"] == "ValueError" and error["line"] == 2 and error["code"] == "y = x @ gamma[:3]"


def test_an_exception_while_defining_names_the_line():
    result = grade("import numpy as np\nscale = 1 / 0\n")
    assert result["failure"]["message"] == "Your code raised ZeroDivisionError before `layernorm_forward` was called."
    assert result["error"] == {"type": "ZeroDivisionError", "message": "division by zero", "line": 2,
                               "code": "scale = 1 / 0"}
    assert result["checks"] == [{"name": "your code runs and defines `layernorm_forward`", "passed": False}]


def test_a_syntax_error():
    result = grade("def layernorm_forward(x, gamma, beta)\n    return x\n")
    assert result["failure"]["message"] == "Your code is not valid Python: expected ':' (line 1)."
    assert result["error"] == {"type": "SyntaxError", "message": "expected ':'", "line": 1,
                               "code": "def layernorm_forward(x, gamma, beta)"}


def test_sys_exit_is_reported_not_obeyed():
    result = grade("import sys\nsys.exit(3)\n")
    assert result["error"]["type"] == "SystemExit" and result["error"]["line"] == 2


def test_a_missing_function():
    result = grade("def layer_norm(x, gamma, beta, eps=1e-5):\n    return x\n")
    assert result["failure"]["message"] == ("Your code does not define a function `layernorm_forward`; keep the "
                                            "name from the starter.")
    assert result["error"] is None


def test_a_wrong_shape_shows_both_values_unmarked():
    result = grade("def layernorm_forward(x, gamma, beta, eps=1e-5):\n    return x[0]\n")
    failure = result["failure"]
    assert failure["message"] == "On a 2×4 input worked by hand, `y` has shape (4,) but should have shape (2, 4)."
    assert failure["got"] == {"name": "y", "cells": [["1.0000", "2.0000", "3.0000", "4.0000"]]}
    assert failure["wrong"] is None
    # By hand: row (1, 2, 3, 4) has mean 2.5 and variance 1.25, so x_hat = (-1.5, -0.5, 0.5, 1.5) / 1.1180; times 2
    # plus 1: (-1.6833, 0.1056, 1.8944, 3.6833). Row (2, -2, 0, 4) has mean 1 and variance 5: x_hat = (1, -3, -1,
    # 3) / 2.2361, y = (1.8944, -1.6833, 0.1056, 3.6833).
    assert failure["expected"] == {"name": "y", "cells": [["-1.6833", "0.1056", "1.8944", "3.6833"],
                                                          ["1.8944", "-1.6833", "0.1056", "3.6833"]]}


def test_a_wrong_number_of_return_values():
    result = grade("def layernorm_backward(dy, x, gamma, beta, eps=1e-5):\n    return dy, dy\n",
                   "layernorm-backward")
    assert result["failure"]["message"] == ("`layernorm_backward` should return 3 values (`dx`, `dgamma`, "
                                            "`dbeta`), but it returned a tuple of 2 values.")


def test_a_forward_that_returns_a_cache_too():
    result = grade("def layernorm_forward(x, gamma, beta, eps=1e-5):\n    return x, {'mean': 0}\n")
    assert result["failure"]["message"] == ("`layernorm_forward` returned a tuple of 2 values; it should return one "
                                            "array, `y`.")


def test_float32_is_a_wrong_dtype():
    source = LAYERNORM.SOLUTION.replace("return gamma * x_hat + beta",
                                        "return (gamma * x_hat + beta).astype(np.float32)")
    assert grade(source)["failure"]["message"] == ("On a 2×4 input worked by hand, `y` has dtype float32 but should "
                                                   "have dtype float64.")


def test_only_the_wrong_entries_are_marked():
    source = LAYERNORM.SOLUTION.replace("return gamma * x_hat + beta",
                                        "y = gamma * x_hat + beta\n    y[1, 2] = 7.0\n    return y")
    failure = grade(source)["failure"]
    assert failure["message"] == "On a 2×4 input worked by hand, `y` is wrong in 1 of 8 entries."
    assert failure["wrong"] == [[False, False, False, False], [False, False, True, False]]
    assert failure["got"]["cells"][1][2] == "7.0000" and failure["expected"]["cells"][1][2] == "0.1056"
    assert failure["hint"] is None  # no known mistake writes a 7 there


def test_a_small_difference_is_shown_with_enough_digits_to_see_it():
    eps_outside = LAYERNORM.MISTAKES[1]  # (sqrt(var) + eps): off by about 4e-6 relative
    failure = grade(eps_outside.source(LAYERNORM.SOLUTION))["failure"]
    for row_e, row_g, row_w in zip(failure["expected"]["cells"], failure["got"]["cells"], failure["wrong"]):
        assert all(e != g for e, g, w in zip(row_e, row_g, row_w) if w)


def test_unbiased_variance_gets_its_hint():
    source = LAYERNORM.SOLUTION.replace("var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)",
                                        "var = np.var(x, axis=-1, ddof=1, keepdims=True)")  # written differently
    failure = grade(source)["failure"]
    assert failure["hint"] == LAYERNORM.MISTAKES[0].hint


def test_repeated_ids_with_plus_equals_keep_only_the_last_row():
    exercise = exercises.get("embedding-backward")
    failure = exercises.grade("embedding-backward", exercise.STARTER)["failure"]
    # ids [[0, 2, 0], [1, 0, 3]]: id 0 takes dout rows (1, 2), (3, -1) and (10, 1), so its gradient is (14, 2);
    # `dtable[ids] += dout` keeps one write per id, the last: (10, 1).
    assert failure["expected"]["cells"] == [["14.0000", "2.0000"], ["-1.0000", "0.0000"], ["0.5000", "0.5000"],
                                            ["2.0000", "2.0000"]]
    assert failure["got"]["cells"][0] == ["10.0000", "1.0000"]
    assert failure["wrong"] == [[True, True], [False, False], [False, False], [False, False]]
    assert failure["hint"] == exercise.MISTAKES[0].hint
    assert failure["inputs"][1] == {"name": "ids", "cells": [["0", "2", "0"], ["1", "0", "3"]]}
    assert failure["inputs"][0]["name"] == "dout[0] (one matrix of dout, shape (2, 3, 2))"


def test_mask_after_softmax_is_recognised():
    exercise = exercises.get("attention-mask-order")
    failure = exercises.grade("attention-mask-order", exercise.STARTER)["failure"]
    assert failure["hint"].startswith("Masking after the softmax zeroes the future")
    # Row 0 may see only key 0, so its weights are (1, 0, 0); masking afterwards leaves softmax(1, 2, 3)[0] =
    # 1 / (1 + e + e^2) = 0.0900 there.
    assert failure["expected"]["cells"][0] == ["1.0000", "0.0000", "0.0000"]
    assert failure["got"]["cells"][0] == ["0.0900", "0.0000", "0.0000"]


def test_missing_inverse_keep_probability_is_recognised():
    exercise = exercises.get("dropout-forward")
    result = exercises.grade("dropout-forward", "def dropout_forward(x, p, mask):\n    return np.where(mask, x, 0.0)\n")
    assert result["failure"]["hint"] == exercise.MISTAKES[0].hint
    # x row 1 = (1, 2, 3, 4), keep (T, F, T, T), p = 0.25: (1/0.75, 0, 3/0.75, 4/0.75).
    assert result["failure"]["expected"]["cells"][0] == ["1.3333", "0.0000", "4.0000", "5.3333"]


def test_a_backward_that_disagrees_with_the_learners_own_forward():
    exercise = exercises.get("layernorm-backward")
    # The backward is right for the true LayerNorm, but this learner's forward uses d - 1: central differences of
    # *their* forward disagree with their backward.
    source = exercise.SOLUTION.replace("    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)\n    return gamma",
                                       "    var = x.var(axis=-1, ddof=1, keepdims=True)\n    return gamma")
    result = exercises.grade("layernorm-backward", source)
    assert [check["passed"] for check in result["checks"]] == [True] * 5 + [False]  # defined, 4 cases, gradients
    assert result["checks"][-1]["name"] == "gradients agree with central differences of your `layernorm_forward`"
    message = result["failure"]["message"]
    assert message.startswith("Your gradient for `x` does not agree with central differences of your "
                              "`layernorm_forward`: relative error ")
    assert message.endswith(", it should be below 1e-6.")


def test_inputs_are_shown_as_given_even_when_the_learner_overwrites_them():
    result = grade("def layernorm_forward(x, gamma, beta, eps=1e-5):\n    x[:] = 0\n    return x\n")
    assert result["failure"]["inputs"][0]["cells"][0] == ["1.0000", "2.0000", "3.0000", "4.0000"]


def test_printed_output_comes_back():
    result = grade(LAYERNORM.SOLUTION.replace("    mean =", "    print('shape', x.shape)\n    mean ="))
    assert result["passed"] and result["output"].startswith("shape (2, 4)\n")


def test_reassigning_an_engine_function_changes_neither_the_reference_nor_the_engine():
    real = engine.norms.layernorm_forward
    source = ("import engine.norms\n"
              "engine.norms.layernorm_forward = lambda x, gamma, beta, eps=1e-5: (x * 0, {})\n"
              "np.sqrt = lambda v: v\n"
              "def layernorm_forward(x, gamma, beta, eps=1e-5):\n"
              "    return x * 0\n")
    result = grade(source)
    assert not result["passed"]
    assert result["failure"]["expected"]["cells"][0] == ["-1.6833", "0.1056", "1.8944", "3.6833"]
    assert engine.norms.layernorm_forward is real and np.sqrt(4.0) == 2.0
    assert grade(LAYERNORM.SOLUTION)["passed"]


def test_the_lab_returns_a_figure_after_a_pass_only():
    lab = exercises.get("residual-lab")
    passed = exercises.grade("residual-lab", lab.SOLUTION)
    assert passed["figure"].startswith("<svg") and "your residual_update" in passed["figure"]
    assert exercises.grade("residual-lab", lab.STARTER)["figure"] is None
    assert exercises.grade("layernorm-forward", LAYERNORM.SOLUTION)["figure"] is None


def test_learner_code_that_breaks_builtins_breaks_only_its_own_calls_and_builtins_come_back():
    source = ("import builtins\n"
              "builtins.len = None\n"
              "builtins.isinstance = None\n"
              "def layernorm_forward(x, gamma, beta, eps=1e-5):\n"
              "    return x\n")
    result = grade(source)
    assert not result["passed"]
    # The grader compares with the real builtins: the learner's `return x` is simply wrong.
    assert result["failure"]["message"] == "On a 2×4 input worked by hand, `y` is wrong in 8 of 8 entries."
    assert len([1, 2]) == 2 and isinstance(result, dict)
    assert grade(LAYERNORM.SOLUTION)["passed"]


def test_a_function_object_without_a_name_is_still_called_and_reported():
    source = ("import functools\n"
              "def norm(x, gamma, beta, eps, extra):\n"
              "    raise ValueError('not yet')\n"
              "layernorm_forward = functools.partial(norm, extra=1)\n")
    result = grade(source)
    assert result["failure"]["message"] == "`layernorm_forward` raised TypeError on a 2×4 input worked by hand."


def test_a_wrong_number_is_named_with_both_values():
    result = exercises.grade("gpt2-std", "def gpt2_std(num_layers, residual):\n    return 0.02 / num_layers\n")
    # L = 2: 0.02 / 2 = 0.01, but 0.02 / sqrt(2 * 2) = 0.01 too; L = 12 not residual-writing: 0.02 / 12 = 0.0017
    # instead of 0.02.
    assert result["failure"]["message"] == ("On L = 12, a matrix that is not residual-writing, `std` is 0.0017 but "
                                            "should be 0.0200.")
    assert result["failure"]["wrong"] == [[True]]


def test_a_value_with_more_axes_shows_the_first_matrix_with_a_wrong_entry_and_the_inputs_there():
    source = LAYERNORM.SOLUTION.replace("return gamma * x_hat + beta",
                                        "y = gamma * x_hat + beta\n    if y.ndim == 3:\n        y[1, 2, 4] = 0.0\n"
                                        "    return y")
    failure = grade(source)["failure"]
    assert failure["message"] == "On a random batch of shape (2, 3, 5), d = 5, `y` is wrong in 1 of 30 entries."
    assert failure["expected"]["name"] == failure["got"]["name"] == "y[1] (one matrix of y, shape (2, 3, 5))"
    assert failure["wrong"] == [[False] * 5, [False] * 5, [False] * 4 + [True]]
    assert failure["got"]["cells"][2][4] == "0.0000"
    x = LAYERNORM.CASES[1].make()["x"]
    assert failure["inputs"][0]["name"] == "x[1] (one matrix of x, shape (2, 3, 5))"
    assert failure["inputs"][0]["cells"][0][0] == f"{x[1, 0, 0]:.4f}"
    assert failure["inputs"][1]["name"] == "gamma"  # 1-D inputs are shown whole


def test_a_backward_whose_given_forward_was_deleted():
    exercise = exercises.get("relu-backward")
    source = exercise.SOLUTION.replace("def relu_forward(x):\n    return np.maximum(x, 0.0)\n", "")
    result = exercises.grade("relu-backward", source)
    assert result["failure"]["message"] == ("Your code no longer defines `relu_forward`, which the gradient check "
                                            "differentiates.")
    assert [check["passed"] for check in result["checks"]] == [True] * 5 + [False]  # defined, 4 cases, gradients


TEXTBOOK_LAYERNORM_BACKWARD = '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) + beta

def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    std = np.sqrt(var + eps)
    dxh = dy * gamma
    dvar = (dxh * (x - mu) * -0.5 * (var + eps) ** -1.5).sum(-1, keepdims=True)
    dmu = (-dxh / std).sum(-1, keepdims=True) + dvar * (-2 * (x - mu)).mean(-1, keepdims=True)
    axes = tuple(range(x.ndim - 1))
    return dxh / std + dvar * 2 * (x - mu) / d + dmu / d, (dy * (x - mu) / std).sum(axes), dy.sum(axes)
'''

JACOBIAN_SOFTMAX_BACKWARD = '''
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def softmax_backward(dp, x):
    p = softmax(x)
    J = np.einsum('...i,ij->...ij', p, np.eye(p.shape[-1])) - p[..., :, None] * p[..., None, :]
    return np.einsum('...ij,...j->...i', J, dp)
'''


def test_other_correct_derivations_pass_the_tolerance():
    # Written another way (the chain rule through mean and variance term by term; the full Jacobian), the round-off
    # differs from the engine's, and relative 1e-8 must still accept them.
    assert exercises.grade("layernorm-backward", TEXTBOOK_LAYERNORM_BACKWARD)["passed"]
    assert exercises.grade("softmax-backward", JACOBIAN_SOFTMAX_BACKWARD)["passed"]


def test_a_backward_that_writes_into_its_inputs_fails_naming_the_input():
    exercise = exercises.get("layernorm-backward")
    source = exercise.SOLUTION.replace("    return dx, dgamma, dbeta\n",
                                       "    x[..., 0] += 5.0\n    return dx, dgamma, dbeta\n")
    failure = exercises.grade("layernorm-backward", source)["failure"]
    assert failure["message"] == (
        "On a 2×4 input with gamma = (1, 2, 3, 4), `layernorm_backward` changed its input `x` in place. Leave the "
        "caller's arrays as they were: the model still needs them after this call. Work on new arrays "
        "(`x = x - ...` rather than `x -= ...`).")


ADAMW_HEAD = "def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):\n"
ADAMW_FIRST = "On the first step (t = 1) of a 1×2 weight and a bias, lr 0.01, weight_decay 0.1"


def test_dict_outputs_are_compared_key_by_key_and_shown_by_key():
    # first step, g = (0.1, -0.3): m = 0.1 g, and the step moves w by lr * g / |g| plus the decay lr * 0.1 * w
    source = ADAMW_HEAD + ("    w = params['w'] - 0.01 * np.sign(grads['w']) - 0.001 * params['w']\n"
                           "    return {'w': w, 'b': params['b'] - 0.01}, {'w': 0.1 * grads['w'], 'b': 0.1 * grads['b']}, "
                           "{'w': 0.05 * grads['w'] ** 2, 'b': 0.05 * grads['b']}\n")
    result = grade(source, "adamw-step")
    failure = result["failure"]
    assert failure["message"] == f"{ADAMW_FIRST}, `v[\"b\"]` is wrong in 1 of 1 entries."  # 0.05 * 0.2, not 0.002
    assert failure["expected"] == {"name": 'v["b"]', "cells": [["0.0020"]]}
    assert failure["got"] == {"name": 'v["b"]', "cells": [["0.0100"]]}
    assert [item["name"] for item in failure["inputs"][:4]] == ['params["w"]', 'params["b"]', 'grads["w"]',
                                                                 'grads["b"]']


def test_a_dict_output_with_other_keys_or_none_at_all_is_named():
    lacks = grade(ADAMW_HEAD + "    return {'w': params['w']}, m, v\n", "adamw-step")["failure"]["message"]
    assert lacks == f"{ADAMW_FIRST}, `params` should have the keys 'w', 'b'; it lacks 'b'."
    extra = grade(ADAMW_HEAD + "    return {**params, 'c': params['b']}, m, v\n", "adamw-step")["failure"]["message"]
    assert extra == f"{ADAMW_FIRST}, `params` should have the keys 'w', 'b'; it also has 'c'."
    array = grade(ADAMW_HEAD + "    return params['w'], m, v\n", "adamw-step")["failure"]["message"]
    assert array == f"{ADAMW_FIRST}, `params` should be a dict with the keys 'w', 'b', but it is an array of shape (1, 2)."
    text = grade(ADAMW_HEAD + "    return {'w': 'w', 'b': params['b']}, m, v\n", "adamw-step")["failure"]["message"]
    assert text == '`params["w"]` should be a NumPy array of numbers, but it is not.'


def test_a_dict_input_changed_in_place_is_named_unless_allowed():
    solution = exercises.get("adamw-step").SOLUTION
    returning = "    return new_params, new_m, new_v\n"
    changed = grade(solution.replace(returning, "    grads.pop('b')\n" + returning), "adamw-step")
    assert changed["failure"]["message"] == (
        f"{ADAMW_FIRST}, `adamw_step` changed its input `grads` in place. Leave the caller's arrays as they were: the "
        "model still needs them after this call. Work on new arrays (`grads = grads - ...` rather than `grads -= ...`).")
    allowed = solution.replace(returning, "    m.clear()\n    m.update(new_m)\n    return new_params, m, new_v\n")
    assert grade(allowed, "adamw-step")["passed"]  # the statement lets the moments be updated in place
