"""Every layer's hand-written backward against central differences (engine.gradcheck), relative error < 1e-6."""
import numpy as np
import pytest

from engine import activations, attention, dropout, embedding, linear, loss, norms, residual, softmax
from engine.gradcheck import check_gradients, check_layer, numerical_gradient, relative_error

TOLERANCE = 1e-6


def normal(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


def assert_all_close(errors):
    assert errors, "nothing was checked"
    for name, error in errors.items():
        assert error < TOLERANCE, f"gradient of {name}: relative error {error:.2e}"


def test_numerical_gradient_of_a_known_function():
    # d/dx sum(x^3) = 3 x^2, worked by hand for x = (1, -2, 0.5)
    x = np.array([1.0, -2.0, 0.5])
    grad = numerical_gradient(lambda: float(np.sum(x**3)), x)
    np.testing.assert_allclose(grad, [3.0, 12.0, 0.75], rtol=1e-9)
    np.testing.assert_array_equal(x, [1.0, -2.0, 0.5])  # restored after probing


def test_relative_error_detects_a_wrong_gradient():
    assert relative_error([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert relative_error([1.0, 0.0], [0.0, 1.0]) == pytest.approx(np.sqrt(2) / 2)


def test_check_layer_flags_a_wrong_backward():
    wrong = check_layer(activations.relu_forward, lambda dy, cache: 2 * dy, {"x": normal(0, 5)}, ("x",))
    assert wrong["x"] > 0.1


def test_linear():
    inputs = {"X": normal(1, 2, 3, 4), "W": normal(2, 4, 5), "b": normal(3, 5)}
    assert_all_close(check_layer(linear.linear_forward, linear.linear_backward, inputs, ("X", "W", "b")))


@pytest.mark.parametrize("name", ["relu", "gelu_tanh", "gelu_erf"])
def test_activation(name):
    x = normal(4, 3, 7)
    x[np.abs(x) < 1e-3] = 0.5  # keep ReLU's kink away from the finite-difference probes
    forward, backward = getattr(activations, f"{name}_forward"), getattr(activations, f"{name}_backward")
    assert_all_close(check_layer(forward, backward, {"x": x}, ("x",)))


def test_softmax():
    assert_all_close(check_layer(softmax.softmax_forward, softmax.softmax_backward, {"x": normal(5, 3, 6)}, ("x",)))


def test_layernorm():
    inputs = {"x": normal(6, 2, 3, 8), "gamma": normal(7, 8), "beta": normal(8, 8)}
    assert_all_close(check_layer(norms.layernorm_forward, norms.layernorm_backward, inputs, ("x", "gamma", "beta")))


def test_rmsnorm():
    inputs = {"x": normal(9, 4, 8), "gamma": normal(10, 8)}
    assert_all_close(check_layer(norms.rmsnorm_forward, norms.rmsnorm_backward, inputs, ("x", "gamma")))


def test_embedding_with_repeated_ids():
    inputs = {"ids": np.array([[1, 3, 1], [0, 3, 3]]), "table": normal(11, 5, 4)}
    assert_all_close(check_layer(embedding.embedding_forward, embedding.embedding_backward, inputs, ("table",)))


def test_token_plus_position_embedding():
    inputs = {"ids": np.array([[2, 2, 0], [1, 2, 4]]), "tok_emb": normal(12, 5, 4), "pos_emb": normal(13, 6, 4)}
    errors = check_layer(embedding.token_position_forward, embedding.token_position_backward, inputs,
                         ("tok_emb", "pos_emb"))
    assert_all_close(errors)


def test_dropout_with_a_fixed_mask():
    x = normal(14, 3, 5)
    mask = dropout.dropout_mask(x.shape, 0.3, np.random.default_rng(0))
    inputs = {"x": x, "p": 0.3, "mask": mask}
    assert_all_close(check_layer(dropout.dropout_forward, dropout.dropout_backward, inputs, ("x",)))


def test_residual():
    inputs = {"x": normal(15, 2, 3), "fx": normal(16, 2, 3)}
    assert_all_close(check_layer(residual.residual_forward, residual.residual_backward, inputs, ("x", "fx")))


def test_scaled_dot_product_attention():
    inputs = {"q": normal(17, 2, 2, 4, 3), "k": normal(18, 2, 2, 4, 3), "v": normal(19, 2, 2, 4, 3)}
    errors = check_layer(attention.scaled_dot_product_forward, attention.scaled_dot_product_backward, inputs,
                         ("q", "k", "v"))
    assert_all_close(errors)


def test_multi_head_attention_including_every_parameter():
    d = 6
    params = {name: normal(20 + i, d, d) if name.startswith("w") else normal(20 + i, d)
              for i, name in enumerate(attention.PARAM_NAMES)}
    x = normal(40, 2, 4, d)
    y, cache = attention.attention_forward(x, params, num_heads=3)
    R = normal(41, *y.shape)
    dx, dparams = attention.attention_backward(R, cache)

    def scalar():
        return float(np.sum(attention.attention_forward(x, params, 3)[0] * R))

    # A key bias adds q . bk to a whole row of scores, which softmax ignores: its true gradient is exactly 0, where a
    # relative error is meaningless, so check it in absolute terms.
    bk_numeric = numerical_gradient(scalar, params["bk"])
    assert np.abs(dparams.pop("bk")).max() < 1e-12 and np.abs(bk_numeric).max() < 1e-8
    assert_all_close(check_gradients(scalar, {"x": x, **params}, {"x": dx, **dparams}))


def test_cross_entropy():
    logits = normal(42, 2, 3, 5)
    targets = np.array([[0, 4, 2], [1, 1, 3]])
    value, cache = loss.cross_entropy_forward(logits, targets)
    dlogits = loss.cross_entropy_backward(1.0, cache)
    errors = check_gradients(lambda: loss.cross_entropy_forward(logits, targets)[0], {"logits": logits},
                             {"logits": dlogits})
    assert_all_close(errors)
