"""What an exercise module may leave out: its STARTER and the body of its reference, derived from what it declares."""
import numpy as np

from engine import exercises
from engine.exercises._spec import first_output, parameters, through_cache


def test_a_write_exercise_without_starter_gets_the_solutions_signature_and_docstring():
    relu = exercises.get("relu-backward")  # its module sets no STARTER; the given forward stays whole
    assert relu.STARTER == ('def relu_forward(x):\n    return np.maximum(x, 0.0)\n\n\n'
                            'def relu_backward(dy, x):\n    """dy and x have the same shape. Return dx."""\n'
                            '    # your code here\n')


def test_a_fix_exercise_without_starter_gets_its_first_known_mistake():
    residual = exercises.get("residual-backward")
    assert "return dx_branch\n" in residual.STARTER and "return dy + dx_branch" not in residual.STARTER
    assert residual.STARTER == residual.SOLUTION.replace("return dy + dx_branch", "return dx_branch")


def test_first_output_drops_the_cache_and_through_cache_hands_it_to_the_backward():
    def double_forward(x, scale=2.0):  # y = scale * x, cache = scale
        return scale * x, scale

    def double_backward(dy, cache):  # dx = scale * dy
        return cache * dy

    assert first_output(double_forward)(np.array([1.0, -3.0]), 3.0).tolist() == [3.0, -9.0]
    assert first_output(double_forward)(np.array([0.5])).tolist() == [1.0]
    assert through_cache(double_backward, double_forward)(np.array([1.0, 2.0]), np.array([7.0, 8.0]), 5.0).tolist() \
        == [5.0, 10.0]


def test_the_parameters_are_read_from_the_solutions_definition():
    assert parameters(exercises.get("layernorm-backward").SOLUTION, "layernorm_backward") \
        == ("dy", "x", "gamma", "beta", "eps")
