"""Bad input to a layer raises LayerwiseError whose message names the function, the argument and the expectation."""
import numpy as np
import pytest

from engine import (activations, attention, data, dropout, embedding, generate, init, linear, loss, norms, optim,
                    residual, softmax)
from engine.errors import LayerwiseError, ShapeError, check_shape


def test_errors_are_value_errors():
    assert issubclass(ShapeError, LayerwiseError) and issubclass(LayerwiseError, ValueError)


def test_linear_rejects_mismatched_inner_sizes():
    with pytest.raises(ShapeError, match=r"linear_forward: X has shape \(2, 3\) but W has shape \(4, 5\): "
                                         r"columns of X must equal rows of W"):
        linear.linear_forward(np.ones((2, 3)), np.ones((4, 5)), np.ones(5))


def test_linear_rejects_a_bias_that_would_broadcast():
    with pytest.raises(ShapeError, match=r"linear_forward: b has shape \(1,\); expected \(5,\)"):
        linear.linear_forward(np.ones((2, 4)), np.ones((4, 5)), np.ones(1))


def test_linear_backward_rejects_a_wrong_upstream_shape():
    _, cache = linear.linear_forward(np.ones((2, 4)), np.ones((4, 5)), np.ones(5))
    with pytest.raises(ShapeError, match=r"linear_backward: dY has shape \(2, 4\); expected \(2, 5\)"):
        linear.linear_backward(np.ones((2, 4)), cache)


def test_non_finite_values_are_named_with_their_position():
    X = np.ones((2, 2))
    X[1, 0] = np.nan
    with pytest.raises(LayerwiseError, match=r"linear_forward: X must be finite, but 1 entries are not "
                                             r"\(first at index \(1, 0\): nan\)"):
        linear.linear_forward(X, np.ones((2, 2)), np.zeros(2))


def test_non_numeric_input_is_rejected():
    with pytest.raises(LayerwiseError, match=r"relu_forward: x must be numeric"):
        activations.relu_forward(np.array(["a", "b"]))


def test_layernorm_gamma_of_the_wrong_size():
    with pytest.raises(ShapeError, match=r"layernorm_forward: gamma has shape \(3,\) but x has 4 features; "
                                         r"expected \(4,\)"):
        norms.layernorm_forward(np.ones(4), np.ones(3), np.zeros(4))


def test_rmsnorm_rejects_infinite_input():
    with pytest.raises(LayerwiseError, match=r"rmsnorm_forward: x must be finite"):
        norms.rmsnorm_forward(np.array([1.0, np.inf]), np.ones(2))


def test_layernorm_constant_row_without_eps():
    with pytest.raises(LayerwiseError, match=r"layernorm_forward: a row of x has zero spread and eps = 0"):
        norms.layernorm_forward(np.full(3, 2.0), np.ones(3), np.zeros(3), eps=0.0)


def test_layernorm_negative_eps():
    with pytest.raises(LayerwiseError, match=r"layernorm_forward: eps must be a finite number >= 0, got -1"):
        norms.layernorm_forward(np.ones(3), np.ones(3), np.zeros(3), eps=-1)


def test_embedding_out_of_range_id():
    with pytest.raises(LayerwiseError, match=r"embedding_forward: ids must lie in \[0, 3\) for a vocabulary of 3, "
                                             r"got 3 at index \(1,\)"):
        embedding.embedding_forward([0, 3], np.ones((3, 2)))


def test_embedding_negative_and_fractional_ids():
    with pytest.raises(LayerwiseError, match=r"got -1 at index \(0,\)"):
        embedding.embedding_forward([-1], np.ones((3, 2)))
    with pytest.raises(LayerwiseError, match=r"embedding_forward: ids must be integer token ids, got an array of "
                                             r"float64"):
        embedding.embedding_forward([0.5], np.ones((3, 2)))


def test_sequence_longer_than_the_position_table():
    with pytest.raises(ShapeError, match=r"token_position_forward: ids has 4 positions but pos_emb has only 3 rows"):
        embedding.token_position_forward(np.zeros((1, 4), dtype=int), np.ones((5, 2)), np.ones((3, 2)))


@pytest.mark.parametrize("p", [1.0, -0.1, 1.5])
def test_dropout_p_outside_0_1(p):
    with pytest.raises(LayerwiseError, match=rf"dropout_forward: p must lie in \[0, 1\), got {p}"):
        dropout.dropout_forward(np.ones(2), p, np.ones(2))
    with pytest.raises(LayerwiseError, match=rf"dropout_mask: p must lie in \[0, 1\), got {p}"):
        dropout.dropout_mask((2,), p, np.random.default_rng(0))


def test_dropout_p_not_a_number_and_rng_not_a_generator():
    with pytest.raises(LayerwiseError, match=r"dropout_forward: p must be a number in \[0, 1\), got '0.5'"):
        dropout.dropout_forward(np.ones(2), "0.5", None)
    with pytest.raises(LayerwiseError, match=r"dropout_mask: rng must be a numpy.random.Generator, got int"):
        dropout.dropout_mask((2,), 0.5, 42)


def test_dropout_mask_shape_and_values():
    with pytest.raises(ShapeError, match=r"dropout_forward: mask has shape \(3,\); expected \(4,\)"):
        dropout.dropout_forward(np.ones(4), 0.5, np.ones(3))
    with pytest.raises(LayerwiseError, match=r"dropout_forward: mask must contain only 0/1"):
        dropout.dropout_forward(np.ones(2), 0.5, np.array([0.5, 1.0]))


def test_residual_refuses_to_broadcast():
    with pytest.raises(ShapeError, match=r"residual_forward: fx has shape \(1,\); expected \(2,\)"):
        residual.residual_forward(np.ones(2), np.ones(1))


def test_softmax_rejects_nan_and_all_masked_rows():
    with pytest.raises(LayerwiseError, match=r"softmax_forward: x must not contain NaN or \+inf"):
        softmax.softmax_forward(np.array([1.0, np.nan]))
    with pytest.raises(LayerwiseError, match=r"softmax_forward: a row of x is entirely -inf"):
        softmax.softmax_forward(np.array([-np.inf, -np.inf]))


def test_softmax_is_stable_for_huge_finite_scores():
    p, _ = softmax.softmax_forward(np.array([1000.0, 1000.0, -1000.0]))
    np.testing.assert_allclose(p, [0.5, 0.5, 0.0], atol=1e-300)


def test_attention_head_split_and_missing_params():
    with pytest.raises(ShapeError, match=r"split_heads: 5 channels cannot be split into 2 equal heads"):
        attention.split_heads(np.ones((1, 2, 5)), 2)
    with pytest.raises(LayerwiseError, match=r"attention_forward: params is missing bo; expected keys"):
        attention.attention_forward(np.ones((1, 2, 4)), {n: None for n in attention.PARAM_NAMES[:-1]}, 2)
    with pytest.raises(ShapeError, match=r"attention_forward: x must have 3 dimensions, got shape \(2, 4\)"):
        attention.attention_forward(np.ones((2, 4)), {}, 2)


def test_scaled_dot_product_shapes_must_agree():
    expected = r"scaled_dot_product_forward: k has shape \(1, 3, 2\); expected \(1, 2, 2\)"
    with pytest.raises(ShapeError, match=expected):
        attention.scaled_dot_product_forward(np.ones((1, 2, 2)), np.ones((1, 3, 2)), np.ones((1, 2, 2)))


def test_cross_entropy_targets():
    with pytest.raises(LayerwiseError, match=r"cross_entropy_forward: targets must lie in \[0, 4\)"):
        loss.cross_entropy_forward(np.zeros((2, 4)), [0, 4])
    with pytest.raises(ShapeError, match=r"cross_entropy_forward: targets has shape \(3,\) but logits has shape "
                                         r"\(2, 4\); expected targets of shape \(2,\)"):
        loss.cross_entropy_forward(np.zeros((2, 4)), [0, 1, 2])


def test_init_rejects_unknown_scheme_and_bad_shapes():
    rng = np.random.default_rng(0)
    with pytest.raises(LayerwiseError, match=r"init_weight: scheme must be one of gpt2, xavier, he, got 'lecun'"):
        init.init_weight("lecun", (2, 2), rng, num_layers=1)
    with pytest.raises(LayerwiseError, match=r"xavier_uniform: shape must be \(n_in, n_out\) with both >= 1"):
        init.xavier_uniform((3,), rng)
    with pytest.raises(LayerwiseError, match=r"signal_propagation: weight_std must be a number, 'he' or 'xavier'"):
        init.signal_propagation("big")


def test_check_shape_shows_wildcards():
    with pytest.raises(ShapeError, match=r"f: a has shape \(2,\); expected \(any, 3\)"):
        check_shape("f", "a", np.ones(2), (None, 3))


RAGGED = [[1.0, 2.0], [3.0]]


# The review's F11: each gave a raw NumPy or Python error (ragged lists, sizes as floats, wrong types) or was
# accepted (NaN and inf in dropout and the residual, complex logits and ids)
@pytest.mark.parametrize("call, message", [
    (lambda: linear.linear_forward(RAGGED, np.ones((2, 2)), np.ones(2)), r"linear_forward: X is not a rectangular "
                                                                         r"array: its rows must all have the same"),
    (lambda: norms.layernorm_forward(RAGGED, np.ones(2), np.zeros(2)), r"layernorm_forward: x is not a rectangular"),
    (lambda: attention.causal_mask(4.0), r"causal_mask: T must be an integer >= 1, got 4.0"),
    (lambda: attention.split_heads(np.ones((1, 2, 4)), 2.0), r"split_heads: num_heads must be an integer >= 1, "
                                                             r"got 2.0"),
    (lambda: optim.learning_rate(np.ones(2), 1e-3, 10, 100), r"learning_rate: step must be an integer >= 0"),
    (lambda: optim.learning_rate(3, 1e-3, "10", 100), r"learning_rate: warmup_steps must be an integer >= 0"),
    (lambda: optim.clip_grad_norm({"w": np.ones(2)}, "1"), r"clip_grad_norm: max_norm must be a finite number > 0"),
    (lambda: optim.clip_grad_norm({"w": np.ones(2)}, np.ones(2)), r"clip_grad_norm: max_norm must be a finite"),
    (lambda: dropout.dropout_forward(np.array([1.0, np.nan]), 0.5, np.ones(2)), r"dropout_forward: x must be "
                                                                               r"finite, but 1 entries are not"),
    (lambda: residual.residual_forward(np.ones(2), np.array([np.inf, 0.0])), r"residual_forward: fx must be finite"),
    (lambda: generate.sampling_distribution(np.array([1 + 2j, 0j])), r"sampling_distribution: logits must be real"),
    (lambda: data.decode(np.array([1 + 0j]), ["a", "b"]), r"decode: ids must be integers, got an array of complex"),
])
def test_inputs_outside_the_checked_path_are_named(call, message):
    with pytest.raises(LayerwiseError, match=message):
        call()


def test_the_sizes_and_numbers_that_are_valid_still_pass():
    # a 0-d array or a NumPy integer is a number as much as a Python one
    assert attention.causal_mask(np.int64(2)).tolist() == [[True, False], [True, True]]
    assert optim.clip_grad_norm({"w": np.array([3.0, 4.0])}, np.array(10.0)) == 5.0  # sqrt(9 + 16)
    assert optim.learning_rate(np.int64(0), 1.0, 2, 10) == 0.5  # (0 + 1) / 2 of the way up the warm-up
    assert data.decode([], ["a"]) == ""
