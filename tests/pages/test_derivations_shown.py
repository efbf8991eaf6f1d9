"""The intermediate lines the layer pages now show, each written again here from the page's formula and checked
against central differences of a plain NumPy forward (no engine code), plus the hand arithmetic the Linear and
Embedding pages spell out."""
import numpy as np
from page_values import page_text

RNG = np.random.default_rng(11)
H = 1e-6


def jacobian(f, x):
    """Central differences: column j is d f / d x_j, for f from a vector to a vector."""
    columns = []
    for j in range(x.size):
        step = np.zeros_like(x)
        step.flat[j] = H
        columns.append(((f(x + step) - f(x - step)) / (2 * H)).ravel())
    return np.array(columns).T


def test_softmax_quotient_rule_line():
    x = RNG.normal(size=5)
    e = np.exp(x)
    S = e.sum()
    delta = np.eye(5)
    by_quotient_rule = (delta * e[:, None] * S - np.outer(e, e)) / S**2  # [i, j]
    p = e / S
    assert np.allclose(by_quotient_rule, delta * p[:, None] - np.outer(p, p))  # the right-hand form
    assert np.allclose(by_quotient_rule, jacobian(lambda v: np.exp(v) / np.exp(v).sum(), x), atol=1e-8)
    assert r"\frac{\delta_{ij}\, e^{x_i}\, S - e^{x_i}\, e^{x_j}}{S^2}" in page_text("layers/softmax.md")


def test_cross_entropy_log_sum_exp_line():
    z = RNG.normal(size=6)
    p = np.exp(z) / np.exp(z).sum()
    assert np.allclose(jacobian(lambda v: np.array([np.log(np.exp(v).sum())]), z)[0], p, atol=1e-8)
    assert r"\frac{\partial}{\partial z_i} \log \sum_j e^{z_j}" in page_text("layers/cross-entropy.md")


def test_attention_entry_by_entry_lines():
    T, hs = 3, 2
    A, V, dO = RNG.random((T, T)), RNG.normal(size=(T, hs)), RNG.normal(size=(T, hs))
    Q, K, dS = RNG.normal(size=(T, hs)), RNG.normal(size=(T, hs)), RNG.normal(size=(T, T))
    dA = np.array([[sum(dO[t, c] * V[s, c] for c in range(hs)) for s in range(T)] for t in range(T)])
    dV = np.array([[sum(A[t, s] * dO[t, c] for t in range(T)) for c in range(hs)] for s in range(T)])
    dQ = np.array([[sum(dS[t, s] * K[s, c] for s in range(T)) for c in range(hs)] for t in range(T)]) / np.sqrt(hs)
    dK = np.array([[sum(dS[t, s] * Q[t, c] for t in range(T)) for c in range(hs)] for s in range(T)]) / np.sqrt(hs)
    # the loss sum(O * dO) with O = A V, and sum(S * dS) with S = Q K^T / sqrt(hs), have exactly these gradients
    assert np.allclose(dA, jacobian(lambda a: np.array([((a @ V) * dO).sum()]), A)[0].reshape(T, T), atol=1e-8)
    assert np.allclose(dV, jacobian(lambda v: np.array([((A @ v) * dO).sum()]), V)[0].reshape(T, hs), atol=1e-8)
    scores = lambda q, k: np.array([((q @ k.T / np.sqrt(hs)) * dS).sum()])  # noqa: E731
    assert np.allclose(dQ, jacobian(lambda q: scores(q, K), Q)[0].reshape(T, hs), atol=1e-8)
    assert np.allclose(dK, jacobian(lambda k: scores(Q, k), K)[0].reshape(T, hs), atol=1e-8)
    page = page_text("layers/attention.md")
    assert r"dA_{ts} = \sum_{c} dO_{tc}\, V_{sc}" in page and r"dK_{sc} = \frac{1}{\sqrt{h_s}} \sum_{t}" in page


def test_rmsnorm_jacobian_line():
    x, eps = RNG.normal(size=4), 1e-5
    r = 1 / np.sqrt((x**2).mean() + eps)
    x_hat = x * r
    by_page = r * np.eye(4) - r**3 * np.outer(x, x) / 4  # the product-rule line
    assert np.allclose(by_page, r * (np.eye(4) - np.outer(x_hat, x_hat) / 4))
    assert np.allclose(by_page, jacobian(lambda v: v / np.sqrt((v**2).mean() + eps), x), atol=1e-8)


def test_linear_one_entry_of_each_gradient():
    X, W, dY = [[1, 2], [0, 1]], [[1, 0, 2], [-1, 1, 0]], [[1, 0, 1], [0, 2, -1]]
    dX00 = sum(dY[0][j] * W[0][j] for j in range(3))
    dW12 = sum(X[t][1] * dY[t][2] for t in range(2))
    db1 = sum(dY[t][1] for t in range(2))
    assert (dX00, dW12, db1) == (3, 1, 2)
    page = page_text("layers/linear.md")
    assert "= 1 \\cdot 1 + 0 \\cdot 0 + 1 \\cdot 2 = 3$" in page
    assert "= 2 \\cdot 1 + 1 \\cdot (-1) = 1$" in page
    assert "$db_1 = dY_{01} + dY_{11} = 0 + 2 = 2$" in page


def test_embedding_row_sums():
    ids, dout = [2, 0, 2], [(1, 1), (2, 2), (3, 3)]
    sums = [tuple(sum(dout[t][k] for t in range(3) if ids[t] == v) for k in range(2)) for v in range(3)]
    assert sums == [(2, 2), (0, 0), (4, 4)]
    page = page_text("layers/embedding.md")
    # the one-hot-transpose table: rows are ids, columns positions t0, t1, t2 (ids 2, 0, 2)
    one_hot_t = [[int(ids[t] == v) for t in range(3)] for v in range(3)]
    assert one_hot_t == [[0, 1, 0], [0, 0, 0], [1, 0, 1]]
    assert "| 0 | 0 | 1 | 0 | $d\\mathrm{out}_1 = (2, 2)$ |" in page and "| 1 | 0 | 0 | 0 | no terms: $(0, 0)$ |" in page
    assert "| 2 | 1 | 0 | 1 | $d\\mathrm{out}_0 + d\\mathrm{out}_2 = (4, 4)$ |" in page


def test_embedding_backward_as_the_one_hot_product():
    ids, V = np.array([2, 0, 2, 3]), 5
    dout = RNG.normal(size=(4, 3))
    one_hot = np.eye(V)[ids]  # (T, V)
    by_occurrence = np.array([dout[ids == v].sum(axis=0) for v in range(V)])  # the page's dE_v
    assert np.allclose(one_hot.T @ dout, by_occurrence)
    assert r"dE = \mathrm{onehot}(i)^\top\, d\mathrm{out}" in page_text("layers/embedding.md")
