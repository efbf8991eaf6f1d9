"""Widget kind ``cross_entropy``: the mean loss of logits against target ids via log-sum-exp, and its fused backward."""
import numpy as np

from .. import loss
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap
from .svg import line_chart

CURVE_FROM = (1e-3, 0.02)  # the loss curve starts at the smallest target probability, clipped to this range


def naive_loss(logits, targets):
    """The common mistake: softmax first, then log. An underflowed probability gives -log 0 = inf, shown as is."""
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        e = np.exp(logits - logits.max(axis=-1, keepdims=True))  # (N, V) even with the max shift...
        p = e / e.sum(axis=-1, keepdims=True)  # (N, V) ...a probability below ~1e-308 becomes exactly 0
        return -np.log(np.take_along_axis(p, targets[:, None], axis=-1)[:, 0])  # (N,)


def compute(logits, targets):
    mean_loss, cache = loss.cross_entropy_forward(logits, targets)
    dlogits = loss.cross_entropy_backward(1.0, cache)  # (N, V)
    probs = cache["probs"]  # (N, V)
    N, V = logits.shape
    onehot = np.eye(V, dtype=np.int64)[targets]  # (N, V)
    row_max = logits.max(axis=-1)  # (N,)
    lse = row_max + np.log(np.exp(logits - row_max[:, None]).sum(axis=-1))  # (N,)
    target_logit = logits[np.arange(N), targets]  # (N,)
    per_position = lse - target_logit  # (N,)
    gap = gradient_gap(lambda: loss.cross_entropy_forward(logits, targets)[0], {"logits": logits},
                       {"logits": dlogits})
    y0 = targets[0]
    arithmetic = (f"Position 1: LSE − z[{y0}] = {format_number(lse[0])} − {format_compact(target_logit[0])} = "
                  f"{format_number(per_position[0])}; the mean over {N} positions is {format_number(mean_loss)}. "
                  f"Its gradient at the target: ({format_number(probs[0, y0])} − 1) / {N} = "
                  f"{format_number(dlogits[0, y0])}")
    return Result(
        blocks=(
            Block("row_max", "m = logits.max(axis=-1)", row_max, ("N",), "step"),
            Block("lse", "LSE = m + log(exp(logits - m).sum(axis=-1))", lse, ("N",), "step"),
            Block("target_logit", "z[y]: the target's logit", target_logit, ("N",), "step"),
            Block("per_position", "LSE − z[y]: the loss at each position", per_position, ("N",), "step"),
            Block("loss", "loss = mean over positions", np.asarray(mean_loss), ()),
            Block("naive", "mistake: -log(softmax(logits)[y]), probabilities first", naive_loss(logits, targets),
                  ("N",)),
            Block("probs", "p = softmax(logits) = exp(logits − LSE)", probs, ("N", "V")),
            Block("onehot", "onehot(y)", onehot, ("N", "V"), "backward"),
            Block("dlogits", "dlogits = (p − onehot) / N", dlogits, ("N", "V"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=gap,
        notes=(f"Equal logits in a row cost ln V = ln {V} = {format_number(np.log(V))}, whatever the target. "
               "Each row of dlogits adds up to 0. Type -800 into a target's logit: the naive loss becomes inf, "
               "log-sum-exp stays finite.",),
        plots=(("The loss at one position, −ln p, against the target's probability p; a bar per position",
                _loss_curve(probs[np.arange(N), targets], per_position)),),
    )


def _loss_curve(target_probs, per_position):
    """The curve −ln p, with a vertical bar from 0 to each position's loss at its target's probability."""
    bars = [(f"position {n + 1}", [p, p], [0.0, loss_n])
            for n, (p, loss_n) in enumerate(zip(target_probs, per_position))]
    start = float(np.clip(np.min(target_probs), *CURVE_FROM))
    p = np.geomspace(start, 1.0, 60)  # (60,) denser where the curve is steep
    return line_chart([("−ln p", p, -np.log(p)), *bars], "p", "loss")


KIND = Kind(
    name="cross_entropy",
    title="Cross-entropy from logits, forward and backward",
    description="Edit the logits or the target ids; each row is one position, each column one vocabulary entry.",
    dims=(Dim("N", "n"), Dim("V", "v", min=2)),
    inputs=(
        Operand("logits", "Logits, one row per position", ("N", "V"),
                [[2, 1, 0.1, -1], [0.5, 0.5, 3, -1], [0, 0, 0, 0]]),
        Operand("targets", "Target id at each position", ("N",), [0, 3, 1], integer=True),
    ),
    compute=compute,
)
