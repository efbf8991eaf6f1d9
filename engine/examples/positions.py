"""Widget kind ``positions``: causal attention cannot tell the order of earlier tokens unless positions are added.

One head with queries, keys and values all equal to ``h = x + P`` (no projections, so every number can be followed)
runs on the tokens in their order and again after the reader's reordering. A place whose query token is the same
and whose earlier tokens are the same set gets exactly the same output when ``P`` is 0; any non-zero ``P`` breaks that.
"""
import numpy as np

from ..attention import scaled_dot_product_forward
from ..errors import LayerwiseError
from .fmt import format_number
from .kind import Block, Dim, Kind, Operand, Result


def _check_order(order):
    if sorted(order.tolist()) != list(range(len(order))):
        raise LayerwiseError(f"positions example: order must name every place 0 to {len(order) - 1} once, "
                             f"got {order.tolist()}")


def _attend(h):
    """Causal attention of one head with q = k = v = h; returns (weights (T, T), output (T, d))."""
    out, cache = scaled_dot_product_forward(h, h, h)  # (T, d)
    return cache["weights"], out


def blind_places(order):
    """Places t whose token is unchanged and whose earlier places hold the same tokens, in some order."""
    return [t for t in range(len(order)) if order[t] == t and set(order[:t].tolist()) == set(range(t))]


def compute(x, P, order):
    _check_order(order)
    weights, out = _attend(x + P)  # (T, T), (T, d)
    moved = x[order]  # (T, d): the token that now sits at each place
    weights_moved, out_moved = _attend(moved + P)
    change = np.abs(out_moved - out).max(axis=-1)  # (T,)
    same = blind_places(order)
    same_text = ", ".join(f"t{t}" for t in same) or "none"
    return Result(
        blocks=(
            Block("h", "h = x + P, in the original order", x + P, ("T", "d"), "step"),
            Block("A", "A = softmax(causal(h h.T / sqrt(d)))", weights, ("T", "T"), "step"),
            Block("out", "out = A h", out, ("T", "d")),
            Block("h_moved", "h' = x[order] + P: the tokens moved, the position rows kept", moved + P, ("T", "d"),
                  "step"),
            Block("A_moved", "A' = softmax(causal(h' h'.T / sqrt(d)))", weights_moved, ("T", "T"), "step"),
            Block("out_moved", "out' = A' h'", out_moved, ("T", "d")),
            Block("change", "max over d of |out' - out| at each place", change, ("T",)),
        ),
        arithmetic=f"change[t{len(order) - 1}] = max |out'[t{len(order) - 1}] - out[t{len(order) - 1}]| = "
                   f"{format_number(change[-1])}",
        notes=(f"Places that keep their token and see the same earlier tokens: {same_text}. With P all 0 their "
               "change is 0 (up to rounding): attention compares a query with a set of keys and nothing marks which "
               "came first. Give the places that swapped tokens different rows of P and those places change too.",),
    )


KIND = Kind(
    name="positions",
    title="Attention without positions: reorder the past",
    description="Edit the tokens x, the position rows P (all 0: no positions) or the new order of the tokens.",
    dims=(Dim("T", "t", min=2, max=8), Dim("d", "i", min=1, max=6)),
    inputs=(
        Operand("x", "Token vectors, one row per place", ("T", "d"), [[1, 0], [0, 1], [1, 1], [0.5, -1]]),
        Operand("P", "Position rows added at each place (all 0: no positions)", ("T", "d"),
                [[0, 0], [0, 0], [0, 0], [0, 0]]),
        Operand("order", "New order: the token each place receives", ("T",), [2, 1, 0, 3], integer=True,
                bounds=(0, 7)),
    ),
    compute=compute,
)
