"""The worked examples of the source documents, reproduced with their published (hand-computed) numbers."""
import numpy as np
import pytest

from engine import activations, dropout, embedding, init, linear, norms, residual


def test_embedding_lookup_picks_rows():
    E = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    out, _ = embedding.embedding_forward([2, 0, 2], E)
    np.testing.assert_array_equal(out, [[0.5, 0.6], [0.1, 0.2], [0.5, 0.6]])


def test_embedding_backward_accumulates_repeated_ids():
    E = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    _, cache = embedding.embedding_forward([2, 0, 2], E)
    upstream = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    dE = embedding.embedding_backward(upstream, cache)
    np.testing.assert_array_equal(dE, [[2, 2], [0, 0], [4, 4]])  # row 2 = [1, 1] + [3, 3]
    # The bug the source documents warn about: fancy-index += keeps only the last write for a repeated id.
    buggy = np.zeros_like(E)
    buggy[np.array([2, 0, 2])] += upstream
    np.testing.assert_array_equal(buggy[2], [3, 3])


def test_layernorm_of_1_2_3_4_with_gamma_2_beta_1():
    y, cache = norms.layernorm_forward([1.0, 2.0, 3.0, 4.0], np.full(4, 2.0), np.ones(4))
    assert cache["mean"][0] == 2.5 and cache["var"][0] == 1.25
    np.testing.assert_allclose(y, [-1.68, 0.11, 1.89, 3.68], atol=0.005)


def test_layernorm_normalised_1_2_3_4_and_a_backward_that_cannot_shift_the_mean():
    y, cache = norms.layernorm_forward([[1.0, 2.0, 3.0, 4.0]], np.ones(4), np.zeros(4))
    np.testing.assert_allclose(y, [[-1.34, -0.45, 0.45, 1.34]], atol=0.005)
    # adding one number to every entry of x leaves x_hat unchanged, so dx must sum to 0 over the features
    dx, _, _ = norms.layernorm_backward(np.array([[0.3, -1.0, 2.0, 0.7]]), cache)
    assert abs(dx.sum()) < 1e-12


def test_layernorm_forgets_the_input_scale():
    _, small = norms.layernorm_forward([1.0, 2.0, 3.0, 4.0], np.ones(4), np.zeros(4), eps=0.0)
    _, large = norms.layernorm_forward([10.0, 20.0, 30.0, 40.0], np.ones(4), np.zeros(4), eps=0.0)
    np.testing.assert_allclose(small["x_hat"], large["x_hat"], rtol=1e-12)


def test_layernorm_of_2_4_6_8_with_learned_gain_and_bias():
    x = np.array([2.0, 4.0, 6.0, 8.0])
    y, cache = norms.layernorm_forward(x, [1.0, 1.0, 2.0, 2.0], [0.0, 0.0, 1.0, 1.0], eps=1e-5)
    np.testing.assert_allclose(cache["x_hat"], [-1.3416, -0.4472, 0.4472, 1.3416], atol=5e-5)
    np.testing.assert_allclose(y, [-1.3416, -0.4472, 1.8944, 3.6833], atol=5e-5)
    # dividing by d - 1 instead (the classic mistake) gives the documents' other numbers, which we must not produce
    unbiased = (x - 5.0) / np.sqrt(20.0 / 3.0 + 1e-5)
    np.testing.assert_allclose(unbiased, [-1.162, -0.387, 0.387, 1.162], atol=5e-4)
    assert not np.allclose(cache["x_hat"], unbiased, atol=1e-2)


def test_layernorm_of_1_3_without_eps():
    y, _ = norms.layernorm_forward([1.0, 3.0], np.ones(2), np.zeros(2), eps=0.0)
    np.testing.assert_array_equal(y, [-1.0, 1.0])


def test_rmsnorm_of_1_2_3_4_keeps_the_signs():
    y, cache = norms.rmsnorm_forward([1.0, 2.0, 3.0, 4.0], np.ones(4))
    assert cache["ms"][0] == 7.5
    np.testing.assert_allclose(y, [0.37, 0.73, 1.10, 1.46], atol=0.005)


def test_layernorm_parameter_counts():
    assert norms.layernorm_param_count(num_layers=12, emb_dim=768) == 38_400  # GPT-2 small
    assert norms.layernorm_param_count(num_layers=24, emb_dim=1024) == 100_352


def test_dropout_p_half_with_mask_1_0_1_1():
    y, cache = dropout.dropout_forward(np.ones(4), 0.5, np.array([1, 0, 1, 1]))
    np.testing.assert_array_equal(y, [2.0, 0.0, 2.0, 2.0])
    np.testing.assert_array_equal(dropout.dropout_backward(np.ones(4), cache), [2.0, 0.0, 2.0, 2.0])


def test_dropout_is_the_identity_at_evaluation():
    x = np.array([1.0, -2.0, 3.0])
    y, cache = dropout.dropout_forward(x, 0.5, None)
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(dropout.dropout_backward(np.ones(3), cache), np.ones(3))


def test_dropout_mask_is_seeded_and_keeps_about_1_minus_p():
    first = dropout.dropout_mask((1000,), 0.25, np.random.default_rng(7))
    again = dropout.dropout_mask((1000,), 0.25, np.random.default_rng(7))
    np.testing.assert_array_equal(first, again)
    assert 0.70 < first.mean() < 0.80


def test_linear_worked_example():
    X = np.array([[1.0, 2.0], [0.0, 1.0]])
    W = np.array([[1.0, 0.0, 2.0], [-1.0, 1.0, 0.0]])
    b = np.array([0.0, 1.0, -1.0])
    Y, cache = linear.linear_forward(X, W, b)
    np.testing.assert_array_equal(Y, [[-1, 3, 1], [-1, 2, -1]])
    dX, dW, db = linear.linear_backward(np.array([[1.0, 0.0, 1.0], [0.0, 2.0, -1.0]]), cache)
    np.testing.assert_array_equal(dW, [[1, 0, 1], [2, 2, 1]])
    np.testing.assert_array_equal(db, [1, 2, 0])
    np.testing.assert_array_equal(dX, [[3, -1], [-2, 2]])


def test_relu_gradient_at_exactly_zero_is_zero():
    _, cache = activations.relu_forward(np.array([-1.0, 0.0, 2.0]))
    np.testing.assert_array_equal(activations.relu_backward(np.ones(3), cache), [0.0, 0.0, 1.0])


def test_gelu_forms_agree_with_known_values():
    # exact GELU(1) = Phi(1) = 0.841344746...; the tanh form is within 1e-3 of the exact one over [-3, 3]
    y, _ = activations.gelu_erf_forward(np.array([1.0, 0.0]))
    np.testing.assert_allclose(y, [0.8413447460685429, 0.0], rtol=1e-12)
    x = np.linspace(-3, 3, 61)
    np.testing.assert_allclose(activations.gelu_tanh_forward(x)[0], activations.gelu_erf_forward(x)[0], atol=1e-3)


@pytest.mark.parametrize("weight_std, low, high", [
    (1.0, 1e11, 1e13),    # seed: about 8e11, the signal explodes
    (0.01, 1e-9, 1e-7),   # seed: about 8e-9, it vanishes
    ("he", 0.5, 1.5),     # seed: about 0.9 with sqrt(2 / 512) = 0.0625
])
def test_signal_propagation_through_10_relu_layers_of_width_512(weight_std, low, high):
    stds = init.signal_propagation(weight_std, num_layers=10, width=512, num_samples=200, seed=0)
    assert stds.shape == (10,)
    assert low < stds[-1] < high


@pytest.mark.parametrize("shape, limit", [((5, 4), 0.8165), ((3, 4), 0.9258), ((4, 4), 0.8660), ((4, 6), 0.7746)])
def test_xavier_uniform_limit_is_sqrt_6_over_fan_in_plus_fan_out(shape, limit):
    W = init.xavier_uniform(shape, np.random.default_rng(0))
    assert W.shape == shape and np.abs(W).max() <= limit + 5e-5
    assert np.sqrt(6 / sum(shape)) == pytest.approx(limit, abs=5e-5)


def test_xavier_and_he_spreads():
    rng = np.random.default_rng(0)
    W = init.xavier_uniform((4, 4), rng)
    assert np.abs(W).max() <= np.sqrt(6 / 8)  # the source documents' limit 0.8660 for a 4x4 matrix
    big = init.he_normal((512, 512), rng)
    assert big.std() == pytest.approx(np.sqrt(2 / 512), rel=0.02)
    assert init.xavier_normal((300, 100), rng).std() == pytest.approx(np.sqrt(2 / 400), rel=0.02)


def test_gpt2_residual_projections_are_scaled_by_one_over_sqrt_2L():
    rng = np.random.default_rng(0)
    assert init.gpt2_normal((400, 400), rng).std() == pytest.approx(0.02, rel=0.02)
    assert init.gpt2_normal((400, 400), rng, num_layers=8).std() == pytest.approx(0.02 / 4, rel=0.02)


def test_residual_worked_example():
    y, _ = residual.residual_forward(np.array([1.0, -1.0]), np.array([0.1, 0.2]))
    np.testing.assert_allclose(y, [1.1, -0.8], rtol=1e-15)


def test_gradient_through_a_skip_connection_is_one_plus_the_branch():
    # out = v + W v with W = 0.5 I; the gradient of sum(out) w.r.t. v is 1 (skip) + 0.5 (through W) = 1.5
    v = np.array([[1.0, -1.0]])
    W = np.array([[0.5, 0.0], [0.0, 0.5]])
    fv, lin_cache = linear.linear_forward(v, W.T, np.zeros(2))  # row-vector form of W v
    out, res_cache = residual.residual_forward(v, fv)
    dv_skip, dfv = residual.residual_backward(np.ones_like(out), res_cache)
    dv_branch, _, _ = linear.linear_backward(dfv, lin_cache)
    np.testing.assert_array_equal(dv_skip + dv_branch, [[1.5, 1.5]])
