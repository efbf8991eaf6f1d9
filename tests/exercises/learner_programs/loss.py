"""Cross-entropy from logits and its backward."""
from . import Correct, Wrong, changed, given

FORWARD = given("cross-entropy-backward")
BY_HAND = "logits [[2, 1, 0], [0, 0, 0]] with targets [0, 2]"
FAR_BELOW = "logits [[700, 0, -700], [0, -745, 5]] with targets [2, 1]: targets far below the maximum"

PROGRAMS = [
    Correct("cross-entropy-forward", "log-softmax, then the target picked", '''
def cross_entropy(logits, targets):
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return float(-np.take_along_axis(logp, targets[..., None], axis=-1).mean())
'''),
    Correct("cross-entropy-forward", "after CS231n's softmax_loss, positions flattened", '''
# after CS231n's layers.py softmax_loss: shifted logits, log-probabilities, the mean over N of the picked ones
def cross_entropy(logits, targets):
    x = logits.reshape(-1, logits.shape[-1])
    y = targets.reshape(-1)
    shifted = x - np.max(x, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return float(-np.sum(log_probs[np.arange(len(y)), y]) / len(y))
'''),
    Correct("cross-entropy-forward", "np.logaddexp.reduce", '''
def cross_entropy(logits, targets):
    lse = np.logaddexp.reduce(logits, axis=-1)
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)[..., 0]
    return float(np.mean(lse - picked))
'''),
    Wrong("cross-entropy-forward", "-log(p + 1e-12)", '''
def cross_entropy(logits, targets):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return float(-np.log(np.take_along_axis(p, targets[..., None], axis=-1) + 1e-12).mean())
''', f"On {FAR_BELOW}, `loss` is 27.6310 but should be 1075.0034."),
    # -log(1e-12) = 27.6310 per position; the truth: (1400 + 745 + 5 + log(1 + e^-5 + e^-750)) / 2 = 1075.0034
    Wrong("cross-entropy-forward", "the maximum not added back", '''
def cross_entropy(logits, targets):
    m = logits.max(axis=-1, keepdims=True)
    lse = np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return float((lse - np.take_along_axis(logits, targets[..., None], axis=-1)).mean())
''', f"On {BY_HAND}, `loss` is -0.2469 but should be 0.7531."),
    # by hand: log(1 + e^-1 + e^-2) = 0.4076 and log 3 = 1.0986; (0.4076 + 1.0986) / 2 and (0.4076 - 2 + 1.0986) / 2
    Wrong("cross-entropy-forward", "per-position losses, no mean", '''
def cross_entropy(logits, targets):
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return (lse - np.take_along_axis(logits, targets[..., None], axis=-1))[..., 0]
''', f"On {BY_HAND}, `loss` has shape (2,) but should have shape ()."),

    Correct("cross-entropy-backward", "a one-hot from np.eye", FORWARD + '''
def cross_entropy_backward(logits, targets):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return (p - np.eye(logits.shape[-1])[targets]) / targets.size
'''),
    Correct("cross-entropy-backward", "1 subtracted by fancy indexing", FORWARD + '''
def cross_entropy_backward(logits, targets):
    V = logits.shape[-1]
    z = logits.reshape(-1, V)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    t = targets.reshape(-1)
    p[np.arange(len(t)), t] -= 1.0
    return (p / len(t)).reshape(logits.shape)
'''),
    Correct("cross-entropy-backward", "exp of the log-softmax", FORWARD + '''
def cross_entropy_backward(logits, targets):
    m = logits.max(axis=-1, keepdims=True)
    p = np.exp(logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True)))
    onehot = (np.arange(logits.shape[-1]) == targets[..., None])
    return (p - onehot) / np.prod(targets.shape)
'''),
    Wrong("cross-entropy-backward", "divided by the batch size B", FORWARD + '''
def cross_entropy_backward(logits, targets):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return (p - np.eye(logits.shape[-1])[targets]) / logits.shape[0]
''', "On random logits (2, 3, 5) with targets (2, 3), `dlogits` is wrong in 30 of 30 entries."),  # B = 2, N = 6
    Wrong("cross-entropy-backward", "the one at the argmax, not the target", FORWARD + '''
def cross_entropy_backward(logits, targets):
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    return (p - np.eye(logits.shape[-1])[logits.argmax(axis=-1)]) / targets.size
''', f"On {BY_HAND}, `dlogits` is wrong in 2 of 6 entries."),  # row 0's argmax is its target; row 1's is 0, not 2
    Wrong("cross-entropy-backward", "the maximum subtracted in place", FORWARD + '''
def cross_entropy_backward(logits, targets):
    logits -= logits.max(axis=-1, keepdims=True)
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    return (p - np.eye(logits.shape[-1])[targets]) / targets.size
''', changed(BY_HAND, "cross_entropy_backward", "logits")),
]
