"""The residual lab (x + LN(x) W) and the residual backward."""
from engine import exercises

from . import Correct, Wrong, changed, given

RESIDUAL_BACKWARD = exercises.get("residual-backward")
FORWARD = given("residual-backward")
LAB_BY_HAND = "a 2×3 input worked by hand"
BY_HAND = "a 2×2 input with a 2×2 W"

PROGRAMS = [
    Correct("residual-lab", "picoGPT's layer_norm as a helper", '''
# layer_norm from picoGPT's gpt2.py; the branch as in its transformer_block, without the attention
def layer_norm(x, g, b, eps: float = 1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return g * (x - mean) / np.sqrt(variance + eps) + b

def residual_update(x, W, gamma, beta, eps=1e-5):
    return x + layer_norm(x, gamma, beta, eps) @ W
'''),
    Correct("residual-lab", "einsum for the branch", '''
def residual_update(x, W, gamma, beta, eps=1e-5):
    centred = x - x.mean(axis=-1, keepdims=True)
    h = gamma * centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps) + beta
    return x + np.einsum("...i,ij->...j", h, W)
'''),
    Correct("residual-lab", "rows flattened and put back", '''
def residual_update(x, W, gamma, beta, eps=1e-5):
    rows = x.reshape(-1, x.shape[-1])
    h = (rows - rows.mean(axis=1, keepdims=True)) / np.sqrt(rows.var(axis=1, keepdims=True) + eps)
    return (rows + (gamma * h + beta) @ W).reshape(x.shape)
'''),
    Wrong("residual-lab", "LN without gamma and beta", '''
def residual_update(x, W, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return x + (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) @ W
''', "On a random batch of shape (2, 3, 5), d = 5, `y` is wrong in 30 of 30 entries."),  # gamma 1, beta 0 by hand
    Wrong("residual-lab", "W on the left", '''
def residual_update(x, W, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    h = gamma * (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) + beta
    return x + W @ h
''', f"`residual_update` raised ValueError on {LAB_BY_HAND}."),
    Wrong("residual-lab", "the unbiased variance", '''
def residual_update(x, W, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    h = gamma * (x - mean) / np.sqrt(x.var(axis=-1, ddof=1, keepdims=True) + eps) + beta
    return x + h @ W
''', f"On {LAB_BY_HAND}, `y` is wrong in 5 of 6 entries."),  # row 1's third output is its x_hat[1] = 0, any scale

    Correct("residual-backward", "einsum for the branch", FORWARD + '''
def residual_backward(dy, x, W):
    return dy + np.einsum("...j,ij->...i", dy, W)
'''),
    Correct("residual-backward", "the whole layer's Jacobian I + W", FORWARD + '''
def residual_backward(dy, x, W):
    return dy @ (np.eye(W.shape[0]) + W).T
'''),
    Correct("residual-backward", "W times dy as column vectors", FORWARD + '''
def residual_backward(dy, x, W):
    return dy + (W @ dy[..., None])[..., 0]
'''),
    Wrong("residual-backward", "the Jacobian I + W untransposed", FORWARD + '''
def residual_backward(dy, x, W):
    return dy @ (np.eye(W.shape[0]) + W)
''', f"On {BY_HAND}, `dx` is wrong in 3 of 4 entries.", RESIDUAL_BACKWARD.MISTAKES[1].hint),  # W[0, 0] = 0 keeps one
    Wrong("residual-backward", "the skip path counted twice", FORWARD + '''
def residual_backward(dy, x, W):
    return 2 * dy + dy @ W.T
''', f"On {BY_HAND}, `dx` is wrong in 3 of 4 entries."),  # dy has one 0
    Wrong("residual-backward", "the branch added into dy", FORWARD + '''
def residual_backward(dy, x, W):
    dy += dy @ W.T
    return dy
''', changed(BY_HAND, "residual_backward", "dy")),
]
