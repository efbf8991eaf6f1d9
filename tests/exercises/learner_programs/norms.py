"""LayerNorm and RMSNorm, forward and backward."""
from engine import exercises

from . import Correct, Wrong, changed, given

LAYERNORM_FORWARD = exercises.get("layernorm-forward")
LAYERNORM_BACKWARD = exercises.get("layernorm-backward")
LN = given("layernorm-backward")
RMS = given("rmsnorm-backward")
BY_HAND = "a 2×4 input worked by hand"
WITH_GAMMA = "a 2×4 input with gamma = (1, 2, 3, 4)"
BATCH = "a random batch of shape (2, 3, 5), d = 5"
RMS_ROWS = "the rows [1, 2, 3, 4] and [3, -4, 0, 0]"

PROGRAMS = [
    Correct("layernorm-forward", "picoGPT's layer_norm", '''
# from picoGPT's gpt2.py (g, b renamed to the exercise's gamma, beta)
def layernorm_forward(x, gamma, beta, eps: float = 1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    x = (x - mean) / np.sqrt(variance + eps)
    return gamma * x + beta
'''),
    Correct("layernorm-forward", "statistics reshaped instead of keepdims", '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1)[..., None]
    centred = x - mean
    var = (centred * centred).sum(axis=-1)[..., None] / x.shape[-1]
    return gamma * centred / np.sqrt(var + eps) + beta
'''),
    Correct("layernorm-forward", "a loop over the rows", '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    rows = x.reshape(-1, x.shape[-1])
    y = np.empty_like(rows)
    for i, row in enumerate(rows):
        mu = sum(row) / len(row)
        var = sum((v - mu) ** 2 for v in row) / len(row)
        y[i] = gamma * (row - mu) / (var + eps) ** 0.5 + beta
    return y.reshape(x.shape)
'''),
    Wrong("layernorm-forward", "np.std plus eps", '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return gamma * (x - mean) / (x.std(axis=-1, keepdims=True) + eps) + beta
''', f"On {BY_HAND}, `y` is wrong in 8 of 8 entries.", LAYERNORM_FORWARD.MISTAKES[1].hint),
    Wrong("layernorm-forward", "one mean and variance for the whole array", '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    return gamma * (x - x.mean()) / np.sqrt(x.var() + eps) + beta
''', f"On {BY_HAND}, `y` is wrong in 8 of 8 entries."),  # global mean 1.75, variance 3.6875
    Wrong("layernorm-forward", "x centred in place", '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    x -= x.mean(axis=-1, keepdims=True)
    return gamma * x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps) + beta
''', changed(BY_HAND, "layernorm_forward", "x")),

    Correct("layernorm-backward", "llm.c's LayerNorm.backward", LN + '''
# after llm.c's doc/layernorm/layernorm.py (LayerNorm.backward), summing over every leading axis, not (0, 1)
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    rstd = (((x - mean) ** 2).mean(-1, keepdims=True) + eps) ** -0.5
    norm = (x - mean) * rstd
    axes = tuple(range(x.ndim - 1))
    db = dy.sum(axes)
    dw = (dy * norm).sum(axes)
    dnorm = dy * gamma
    dx = dnorm - dnorm.mean(-1, keepdims=True) - (dnorm * norm).mean(-1, keepdims=True) * norm
    dx *= rstd
    return dx, dw, db
'''),
    Correct("layernorm-backward", "rows flattened, sums over d", LN + '''
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    X, DY = x.reshape(-1, d), dy.reshape(-1, d)
    inv = 1.0 / np.sqrt(X.var(axis=1, keepdims=True) + eps)
    xh = (X - X.mean(axis=1, keepdims=True)) * inv
    g = DY * gamma
    dX = inv / d * (d * g - g.sum(axis=1, keepdims=True) - xh * (g * xh).sum(axis=1, keepdims=True))
    return dX.reshape(x.shape), (DY * xh).sum(axis=0), DY.sum(axis=0)
'''),
    Correct("layernorm-backward", "each row's full Jacobian", LN + '''
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    X, DY = x.reshape(-1, d), dy.reshape(-1, d)
    dX, dgamma = np.empty_like(X), np.zeros(d)
    for i, (row, up) in enumerate(zip(X, DY)):
        inv = 1.0 / np.sqrt(row.var() + eps)
        xh = (row - row.mean()) * inv
        J = inv * (np.eye(d) - 1.0 / d - np.outer(xh, xh) / d)   # d x_hat / d x, symmetric
        dX[i] = J @ (gamma * up)
        dgamma += up * xh
    return dX.reshape(x.shape), dgamma, DY.sum(axis=0)
'''),
    Wrong("layernorm-backward", "dgamma and dbeta summed over axis 0", LN + '''
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(x.var(-1, keepdims=True) + eps)
    xh = (x - mean) * rstd
    g = gamma * dy
    dx = (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True)) * rstd
    return dx, (dy * xh).sum(axis=0), dy.sum(axis=0)
''', f"On {BATCH}, `dgamma` has shape (3, 5) but should have shape (5,).", LAYERNORM_BACKWARD.MISTAKES[4].hint),
    Wrong("layernorm-backward", "mean and variance both taken as constants", LN + '''
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(x.var(-1, keepdims=True) + eps)
    axes = tuple(range(x.ndim - 1))
    return gamma * dy * rstd, (dy * (x - mean) * rstd).sum(axes), dy.sum(axes)
''', f"On {WITH_GAMMA}, `dx` is wrong in 8 of 8 entries."),  # the two dropped terms vanish at no entry there
    Wrong("layernorm-backward", "dbeta as a mean", LN + '''
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(x.var(-1, keepdims=True) + eps)
    xh = (x - mean) * rstd
    g = gamma * dy
    dx = (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True)) * rstd
    axes = tuple(range(x.ndim - 1))
    return dx, (dy * xh).sum(axes), dy.mean(axes)
''', f"On {WITH_GAMMA}, `dbeta` is wrong in 4 of 4 entries."),  # column sums (1.5, 0.5, -0.5, 1), means half that
    Wrong("layernorm-backward", "x centred in place", LN + '''
def layernorm_backward(dy, x, gamma, beta, eps=1e-5):
    x -= x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps)
    xh = x * rstd
    g = gamma * dy
    dx = (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True)) * rstd
    axes = tuple(range(x.ndim - 1))
    return dx, (dy * xh).sum(axes), dy.sum(axes)
''', changed(WITH_GAMMA, "layernorm_backward", "x")),

    Correct("rmsnorm-forward", "np.square and np.mean", '''
def rmsnorm_forward(x, gamma, eps=1e-5):
    return gamma * x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + eps)
'''),
    Correct("rmsnorm-forward", "the mean square from einsum", '''
def rmsnorm_forward(x, gamma, eps=1e-5):
    ms = np.einsum("...i,...i->...", x, x)[..., None] / x.shape[-1]
    return x * gamma / np.sqrt(ms + eps)
'''),
    Correct("rmsnorm-forward", "the root mean square from np.linalg.norm", '''
def rmsnorm_forward(x, gamma, eps=1e-5):
    rms = np.linalg.norm(x, axis=-1, keepdims=True) / np.sqrt(x.shape[-1])
    return gamma * (x / np.sqrt(rms ** 2 + eps))
'''),
    Wrong("rmsnorm-forward", "eps added to the root", '''
def rmsnorm_forward(x, gamma, eps=1e-5):
    return gamma * x / (np.sqrt((x ** 2).mean(axis=-1, keepdims=True)) + eps)
''', f"On {RMS_ROWS}, `y` is wrong in 6 of 8 entries."),  # the two zeros stay 0
    Wrong("rmsnorm-forward", "the root of the sum of squares", '''
def rmsnorm_forward(x, gamma, eps=1e-5):
    return gamma * x / np.sqrt((x ** 2).sum(axis=-1, keepdims=True) + eps)
''', f"On {RMS_ROWS}, `y` is wrong in 6 of 8 entries."),
    Wrong("rmsnorm-forward", "float32", '''
def rmsnorm_forward(x, gamma, eps=1e-5):
    x = x.astype(np.float32)
    return gamma * x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
''', f"On {RMS_ROWS}, `y` is wrong in 6 of 8 entries."),  # float64 again after gamma, but rounded; 0 stays 0

    Correct("rmsnorm-backward", "the r^3 form", RMS + '''
def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    r = (np.mean(x * x, axis=-1, keepdims=True) + eps) ** -0.5
    g = gamma * dy
    dx = g * r - x * r ** 3 * np.mean(g * x, axis=-1, keepdims=True)
    return dx, np.sum(dy * x * r, axis=tuple(range(x.ndim - 1)))
'''),
    Correct("rmsnorm-backward", "rows flattened", RMS + '''
def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    d = x.shape[-1]
    X, DY = x.reshape(-1, d), dy.reshape(-1, d)
    r = 1.0 / np.sqrt((X ** 2).sum(axis=1, keepdims=True) / d + eps)
    xh, g = X * r, DY * gamma
    dX = r * (g - xh * (g * xh).sum(axis=1, keepdims=True) / d)
    return dX.reshape(x.shape), (DY * xh).sum(axis=0)
'''),
    Correct("rmsnorm-backward", "each row's Jacobian r (I - x_hat x_hat^T / d)", RMS + '''
def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    d = x.shape[-1]
    X, DY = x.reshape(-1, d), dy.reshape(-1, d)
    dX, dgamma = np.empty_like(X), np.zeros(d)
    for i, (row, up) in enumerate(zip(X, DY)):
        r = 1.0 / np.sqrt(row @ row / d + eps)
        xh = row * r
        dX[i] = r * (np.eye(d) - np.outer(xh, xh) / d) @ (gamma * up)
        dgamma += up * xh
    return dX.reshape(x.shape), dgamma
'''),
    Wrong("rmsnorm-backward", "dgamma as the sum of dy alone", RMS + '''
def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    r = 1.0 / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    xh, g = x * r, gamma * dy
    dx = (g - xh * (g * xh).mean(axis=-1, keepdims=True)) * r
    return dx, dy.sum(axis=tuple(range(dy.ndim - 1)))
''', f"On {WITH_GAMMA}, `dgamma` is wrong in 4 of 4 entries."),
    Wrong("rmsnorm-backward", "LayerNorm's mean term carried over", RMS + '''
def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    r = 1.0 / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    xh, g = x * r, gamma * dy
    dx = (g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True)) * r
    return dx, (dy * xh).sum(axis=tuple(range(dy.ndim - 1)))
''', f"On {WITH_GAMMA}, `dx` is wrong in 8 of 8 entries."),  # the row means of g are 1.5 and -0.25
    Wrong("rmsnorm-backward", "dgamma summed with keepdims", RMS + '''
def rmsnorm_backward(dy, x, gamma, eps=1e-5):
    r = 1.0 / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    xh, g = x * r, gamma * dy
    dx = (g - xh * (g * xh).mean(axis=-1, keepdims=True)) * r
    return dx, (dy * xh).sum(axis=tuple(range(dy.ndim - 1)), keepdims=True)
''', f"On {WITH_GAMMA}, `dgamma` has shape (1, 4) but should have shape (4,)."),
]
