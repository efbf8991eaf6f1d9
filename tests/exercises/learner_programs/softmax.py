"""Stable softmax and its backward."""
from . import Correct, Wrong, changed, given

SOFTMAX = given("softmax-backward")
ROWS = "the rows [1, 2, 3] and [0, 0, 0]"
FAR_APART = "3 rows of 5 scores around 0, -1000 and +1000"
SQUARE = "the 3×3 scores [[1, 2, 3], [0, 0, 0], [-1, 0, 1]] with dp worked by hand"

PROGRAMS = [
    Correct("softmax-forward", "picoGPT's softmax", '''
# from picoGPT's gpt2.py
def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)
'''),
    Correct("softmax-forward", "exp of x minus its log-sum-exp", '''
def softmax(x):
    m = x.max(axis=-1, keepdims=True)
    return np.exp(x - (m + np.log(np.exp(x - m).sum(axis=-1, keepdims=True))))
'''),
    Correct("softmax-forward", "row by row over the flattened leading axes", '''
def softmax(x):
    rows = x.reshape(-1, x.shape[-1])
    out = np.empty_like(rows)
    for i, row in enumerate(rows):
        e = np.exp(row - row.max())
        out[i] = e / e.sum()
    return out.reshape(x.shape)
'''),
    Wrong("softmax-forward", "normalised down the columns (axis 0)", '''
def softmax(x):
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
''', f"On {ROWS}, `p` is wrong in 6 of 6 entries."),
    Wrong("softmax-forward", "scores clipped to [-50, 50] against overflow", '''
def softmax(x):
    e = np.exp(np.clip(x, -50.0, 50.0))
    return e / e.sum(axis=-1, keepdims=True)
''', f"On {FAR_APART}, `p` is wrong in 10 of 15 entries."),  # the rows near -1000 and +1000 become uniform
    Wrong("softmax-forward", "the sum without keepdims", '''
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1)
''', f"`softmax` raised ValueError on {ROWS}."),

    Correct("softmax-backward", "the Jacobian diag(p) - p p^T row by row", SOFTMAX + '''
def softmax_backward(dp, x):
    p = softmax(x)
    rows_p, rows_dp = p.reshape(-1, p.shape[-1]), dp.reshape(-1, p.shape[-1])
    dx = np.empty_like(rows_p)
    for i, (pi, dpi) in enumerate(zip(rows_p, rows_dp)):
        dx[i] = (np.diag(pi) - np.outer(pi, pi)) @ dpi
    return dx.reshape(p.shape)
'''),
    Correct("softmax-backward", "einsum for the row sums", SOFTMAX + '''
def softmax_backward(dp, x):
    p = softmax(x)
    s = np.einsum("...i,...i->...", dp, p)[..., None]
    return p * (dp - s)
'''),
    Correct("softmax-backward", "two products, the sum with np.sum", SOFTMAX + '''
def softmax_backward(dp, x):
    p = softmax(x)
    return p * dp - p * np.sum(p * dp, axis=-1, keepdims=True)
'''),
    Wrong("softmax-backward", "diag(p) alone as the Jacobian", SOFTMAX + '''
def softmax_backward(dp, x):
    p = softmax(x)
    return p * dp
''', f"On {SQUARE}, `dx` is wrong in 9 of 9 entries."),
    Wrong("softmax-backward", "the row sum of dp without p", SOFTMAX + '''
def softmax_backward(dp, x):
    p = softmax(x)
    return p * (dp - dp.sum(axis=-1, keepdims=True))
''', f"On {SQUARE}, `dx` is wrong in 9 of 9 entries."),
    Wrong("softmax-backward", "log-softmax's backward instead", SOFTMAX + '''
def softmax_backward(dp, x):
    p = softmax(x)
    return dp - p * dp.sum(axis=-1, keepdims=True)
''', f"On {SQUARE}, `dx` is wrong in 9 of 9 entries."),
    Wrong("softmax-backward", "the maximum subtracted from x in place", SOFTMAX + '''
def softmax_backward(dp, x):
    x -= x.max(axis=-1, keepdims=True)
    p = np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)
    return p * (dp - (dp * p).sum(axis=-1, keepdims=True))
''', changed(SQUARE, "softmax_backward", "x")),
]
