"""Cross-entropy from logits: the average of ``-log softmax(logits)[target]`` over every position.

Written with log-sum-exp so no probability is ever formed and then logged (which underflows); the backward is the
fused form ``(softmax - onehot) / N`` instead of a softmax backward followed by a log backward.
"""
import numpy as np

from .errors import ShapeError, as_float_array, check_finite, check_token_ids


def cross_entropy_forward(logits, targets):
    """Mean cross-entropy of logits ``(..., V)`` against integer targets ``(...)``; returns ``(loss, cache)``."""
    logits = as_float_array("cross_entropy_forward", "logits", logits)  # (..., V)
    if logits.ndim == 0 or logits.shape[-1] == 0:
        raise ShapeError(f"cross_entropy_forward: logits needs a non-empty last (vocabulary) axis, got {logits.shape}")
    check_finite("cross_entropy_forward", "logits", logits)
    V = logits.shape[-1]
    targets = check_token_ids("cross_entropy_forward", "targets", targets, V)  # (...)
    if targets.shape != logits.shape[:-1]:
        raise ShapeError(f"cross_entropy_forward: targets has shape {targets.shape} but logits has shape "
                         f"{logits.shape}; expected targets of shape {logits.shape[:-1]}")
    row_max = logits.max(axis=-1, keepdims=True)  # (..., 1)
    lse = row_max + np.log(np.exp(logits - row_max).sum(axis=-1, keepdims=True))  # (..., 1) log-sum-exp
    target_logit = np.take_along_axis(logits, targets[..., None], axis=-1)  # (..., 1)
    loss = float((lse - target_logit).mean())
    probs = np.exp(logits - lse)  # (..., V) softmax, reused by the backward
    return loss, {"probs": probs, "targets": targets}


def cross_entropy_backward(dloss, cache):
    """``dlogits = dloss * (softmax(logits) - onehot(targets)) / N`` with N the number of positions."""
    probs, targets = cache["probs"], cache["targets"]
    dlogits = probs.copy()  # (..., V)
    np.put_along_axis(dlogits, targets[..., None], np.take_along_axis(probs, targets[..., None], axis=-1) - 1.0,
                      axis=-1)
    return dlogits * (float(dloss) / max(targets.size, 1))
