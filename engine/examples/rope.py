"""Widget kind ``rope``: queries and keys turned by their positions' angles, the scores that follow, the same scores
with every position shifted, and the backward of the rotation."""
import math

import numpy as np

from ..rope import rope_backward, rope_forward, rope_frequencies, rope_tables
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, layer_gradient_gap
from .svg import heat_map


def _scores(q, k, tables):
    """``(T, T)`` scores of rotated queries against rotated keys, every pair (the causal mask comes after)."""
    return rope_forward(q, tables) @ rope_forward(k, tables).T / math.sqrt(q.shape[-1])


def compute(q, k, shift, base, dy):
    T, hs = q.shape
    shift = int(shift)
    tables = rope_tables(np.arange(T), hs, base)  # (T, hs/2) twice
    shifted = rope_tables(np.arange(T) + shift, hs, base)
    angles = np.arange(T)[:, None] * rope_frequencies(hs, base)  # (T, hs/2)
    q_rot, k_rot = rope_forward(q, tables), rope_forward(k, tables)  # (T, hs) each
    scores, scores_shifted = _scores(q, k, tables), _scores(q, k, shifted)  # (T, T) each
    plain = q @ k.T / math.sqrt(hs)  # (T, T): the same vectors without positions
    dq = rope_backward(dy, tables)  # (T, hs)
    row = min(1, T - 1)
    arithmetic = (f"q_rot[t{row}, j0] = q[t{row}, j0] cos({row}·θ0) − q[t{row}, j1] sin({row}·θ0) = "
                  f"{format_compact(q[row, 0])} × {format_compact(math.cos(angles[row, 0]))} − "
                  f"{format_compact(q[row, 1])} × {format_compact(math.sin(angles[row, 0]))} = "
                  f"{format_number(q_rot[row, 0])}")
    notes = (
        f"Shifting every position by {shift} changes the scores by at most "
        f"{np.max(np.abs(scores_shifted - scores)):.1e}: only the offset between query and key matters.",
        "Lengths are kept: |q| per row " + ", ".join(format_compact(v) for v in np.linalg.norm(q, axis=1))
        + "; |q_rot| " + ", ".join(format_compact(v) for v in np.linalg.norm(q_rot, axis=1)) + ".",
        f"Without positions the scores would be q·k/√hs; the rotation moves them by up to "
        f"{format_compact(np.max(np.abs(scores - plain)))} here.",
    )
    labels = [f"t{i}" for i in range(T)]
    return Result(
        blocks=(
            Block("angles", "angle[t, i] = t · base^(−2i/hs)", angles, ("T", "p"), "step"),
            Block("q_rot", "q_rot = rotate(q, t)", q_rot, ("T", "h")),
            Block("k_rot", "k_rot = rotate(k, t)", k_rot, ("T", "h")),
            Block("S", "S = q_rot @ k_rot.T / sqrt(hs)", scores, ("T", "T")),
            Block("S_shifted", "S with every position moved by the shift", scores_shifted, ("T", "T")),
            Block("dq", "dq = rotate(dy, −angle)", dq, ("T", "h"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=layer_gradient_gap(lambda q: (rope_forward(q, tables), None), {"q": q}, dy, {"q": dq}),
        notes=notes,
        plots=(("Scores of rotated queries (rows) against rotated keys (columns)",
                heat_map(scores, labels, labels, "rotary attention scores")),),
    )


KIND = Kind(
    name="rope",
    title="Rotary position embeddings, forward and backward",
    description="Rows are positions 0, 1, 2, ...; channels rotate in pairs (j0, j1), (j2, j3). Edit q, k, the shift, "
                "the base or the upstream gradient dy.",
    dims=(Dim("T", "t", 1, 6), Dim("h", "j", 2, 8), Dim("p", "i", 1, 4, resizable=False)),
    inputs=(
        Operand("q", "queries, one row per position", ("T", "h"), [[1, 0, 1, 0], [1, 0, 1, 0], [1, 0, 1, 0]]),
        Operand("k", "keys, one row per position", ("T", "h"), [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]]),
        Operand("shift", "shift added to every position", (), 5, integer=True, bounds=(0, 1000)),
        Operand("base", "base of the frequencies", (), 100, bounds=(1.5, 1e6)),
        Operand("dy", "gradient of the loss with respect to q_rot", ("T", "h"), [[1, 0, 0, 0], [0, 1, 0, 0],
                                                                                 [0, 0, 1, 0]]),
    ),
    compute=compute,
)
