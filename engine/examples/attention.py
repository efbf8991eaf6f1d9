"""Widget kind ``attention``: one causal head, softmax(mask(q k^T / sqrt(hs))) v, forward and backward.

The reader edits q, k, v and the upstream gradient of one head; the example shows the scores, the mask, the weights
as a heat map, the output, every backward step, and three mistakes computed live (no scaling, the wrong triangle,
masking after the softmax). The deferred gradient check also runs the whole multi-head layer, built from these
numbers, through its backward against central differences.
"""
import math

import numpy as np

from ..attention import (PARAM_NAMES, attention_backward, attention_forward, causal_mask,
                         scaled_dot_product_backward, scaled_dot_product_forward)
from ..softmax import softmax_backward, softmax_forward
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap
from .svg import heat_map

LAYER_HEADS = 2
LAYER_SEED = 0


def _weights_with_mask(scores, mask):
    """Softmax of ``scores`` (T, T) with the entries outside ``mask`` set to -inf first."""
    return softmax_forward(np.where(mask, scores, -np.inf))[0]


def _future_leak(q, k, v, mask):
    """How far row 0 of the output moves when the last position's value grows by 1, under ``mask``."""
    scale = 1.0 / math.sqrt(q.shape[-1])
    weights = _weights_with_mask(q @ k.T * scale, mask)  # (T, T)
    nudged = v.copy()
    nudged[-1] += 1.0
    return float(np.max(np.abs(weights[0] @ nudged - weights[0] @ v)))


def layer_gradient_gap(q, k):
    """The full multi-head layer on x = [q k] (T, 2 hs) with seeded weights: largest backward vs finite-difference gap."""
    x = np.concatenate([q, k], axis=1)[None]  # (1, T, d) with d = 2 hs, so two heads of size hs
    d = x.shape[-1]
    rng = np.random.default_rng(LAYER_SEED)
    params = {name: rng.normal(0.0, 0.5, (d, d) if name.startswith("w") else (d,)) for name in PARAM_NAMES}
    y, cache = attention_forward(x, params, LAYER_HEADS)  # (1, T, d)
    dy = rng.standard_normal(y.shape)  # (1, T, d)
    dx, dparams = attention_backward(dy, cache)

    def loss():
        return float(np.sum(attention_forward(x, params, LAYER_HEADS)[0] * dy))

    return gradient_gap(loss, {"x": x, **params}, {"x": dx, **dparams})


def compute(q, k, v, dout):
    T, hs = q.shape
    out, cache = scaled_dot_product_forward(q, k, v)  # (T, hs)
    dq, dk, dv = scaled_dot_product_backward(dout, cache)  # (T, hs) each
    scale = cache["scale"]
    raw = q @ k.T  # (T, T), before the scaling
    scores = raw * scale  # (T, T)
    mask = causal_mask(T)  # (T, T)
    weights = cache["weights"]  # (T, T)
    dweights = dout @ v.T  # (T, T), the same product the backward forms first
    dscores = softmax_backward(dweights, cache["softmax"])  # (T, T), before the 1/sqrt(hs)

    def loss():
        return float(np.sum(scaled_dot_product_forward(q, k, v)[0] * dout))

    def gap():  # deferred: the head's check, then the whole layer's, together about a hundred times the forward
        head = gradient_gap(loss, {"q": q, "k": k, "v": v}, {"q": dq, "k": dk, "v": dv})
        return max(head, layer_gradient_gap(q, k))

    row = min(1, T - 1)  # row 1 has two allowed positions, the first that is worth spelling out
    terms = " + ".join(f"{format_compact(a)} × {format_compact(b)}" for a, b in zip(q[row], k[0]))
    arithmetic = (f"S[t{row}, t0] = (q{row} · k0) / √{hs} = ({terms}) / "
                  f"{format_compact(math.sqrt(hs))} = {format_number(scores[row, 0])}")

    unscaled = _weights_with_mask(raw, mask)  # (T, T)
    leak_right = _future_leak(q, k, v, mask)
    leak_wrong = _future_leak(q, k, v, np.triu(np.ones((T, T), dtype=bool)))
    after = softmax_forward(scores)[0] * mask  # (T, T): masked after normalising
    notes = (
        "Every row of A sums to 1: " + ", ".join(format_compact(s) for s in weights.sum(axis=1)) + ".",
        f"Without the 1/√hs the largest weight of the last row would be {format_compact(unscaled[-1].max())} "
        f"instead of {format_compact(weights[-1].max())}: unscaled scores make the softmax sharper.",
        f"Adding 1 to the last value moves output row t0 by {format_compact(leak_right)} with the causal mask and by "
        f"{format_compact(leak_wrong)} with the wrong triangle (s ≥ t), which lets t0 read the future.",
        "Masking after the softmax instead leaves row sums of "
        + ", ".join(format_compact(s) for s in after.sum(axis=1)) + ".",
        f"The gradient check below covers this head's dq, dk, dv and also the whole layer (d = {2 * hs}, "
        f"{LAYER_HEADS} heads of size {hs}, x = [q k], weights drawn from seed {LAYER_SEED}): its backward against "
        f"central differences over x and all eight parameters.",
    )
    labels = [f"t{i}" for i in range(T)]
    return Result(
        blocks=(
            Block("S", "S = q @ k.T / sqrt(hs)", scores, ("T", "T"), "step"),
            Block("M", "causal mask M: 1 where s ≤ t", mask, ("T", "T"), "step"),
            Block("A", "A = softmax(S where M, else -inf)", weights, ("T", "T")),
            Block("out", "out = A @ v", out, ("T", "h")),
            Block("dA", "dA = dout @ v.T", dweights, ("T", "T"), "backward"),
            Block("dS", "dS = A * (dA - (dA * A).sum(axis=-1, keepdims=True))", dscores, ("T", "T"), "backward"),
            Block("dq", "dq = dS @ k / sqrt(hs)", dq, ("T", "h"), "backward"),
            Block("dk", "dk = dS.T @ q / sqrt(hs)", dk, ("T", "h"), "backward"),
            Block("dv", "dv = A.T @ dout", dv, ("T", "h"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=gap,
        notes=notes,
        plots=(("Causal attention weights A (row t: query position, column: key position)",
                heat_map(weights, labels, labels, "causal attention weights")),),
    )


KIND = Kind(
    name="attention",
    title="One causal attention head, forward and backward",
    description="Rows are positions. Edit q, k, v or the upstream gradient dout; add a row to add a position.",
    dims=(Dim("T", "t", 1, 6), Dim("h", "j", 1, 4)),
    inputs=(
        Operand("q", "queries, one row per position", ("T", "h"), [[1, 0], [2, 1], [0, 1], [1, 1]]),
        Operand("k", "keys", ("T", "h"), [[1, 0], [0, 1], [1, 1], [-1, 1]]),
        Operand("v", "values", ("T", "h"), [[1, 0], [0, 1], [2, 2], [-1, 1]]),
        Operand("dout", "gradient of the loss on the output", ("T", "h"), [[1, 0], [0, 1], [1, 1], [1, -1]]),
    ),
    compute=compute,
)
