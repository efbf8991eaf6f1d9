"""Widget kind ``embedding``: token ids pick rows of a table; the backward must add, not overwrite, repeated ids."""
import numpy as np

from .. import embedding
from .fmt import format_short
from .kind import Block, Dim, Kind, Operand, Result, layer_gradient_gap


def compute(E, ids, dout):
    out, cache = embedding.embedding_forward(ids, E)  # (T, D)
    dE = embedding.embedding_backward(dout, cache)  # (V, D), accumulated with np.add.at
    overwritten = np.zeros_like(E)  # (V, D)
    overwritten[ids] += dout  # the classic mistake: a repeated id keeps only its last write

    gap = layer_gradient_gap(embedding.embedding_forward, {"ids": ids, "table": E}, dout, {"table": dE})

    lost = [f"v{int(v)}" for v in np.unique(ids) if not np.array_equal(dE[v], overwritten[v])]  # the rows' headers
    notes = (_lost_rows(lost) if lost else "No row differs: repeat an id in ids to see dE[ids] += dout lose an update.",)
    arithmetic = (f"out[t0] is row v{int(ids[0])} of E: "
                  f"({', '.join(format_short(v) for v in E[ids[0]])})")
    return Result(
        blocks=(
            Block("out", "out = E[ids]", out, ("T", "D")),
            Block("dE", "dE with np.add.at(dE, ids, dout) (correct)", dE, ("V", "D"), "backward"),
            Block("dE_overwritten", "dE with dE[ids] += dout (wrong for repeated ids)", overwritten, ("V", "D"),
                  "backward"),
        ),
        arithmetic=arithmetic, gradient_gap=gap, notes=notes)


def _lost_rows(rows):
    """"Row v2 loses ..." or "Rows v0 and v2 lose ...": the rows named as the grids' headers name them."""
    if len(rows) == 1:
        return f"Row {rows[0]} of dE loses updates with dE[ids] += dout: its id is repeated in ids."
    names = ", ".join(rows[:-1]) + " and " + rows[-1]
    return f"Rows {names} of dE lose updates with dE[ids] += dout: their ids are repeated in ids."


KIND = Kind(
    name="embedding",
    title="Embedding lookup, and why its backward needs np.add.at",
    description="Edit the table E, the token ids or the upstream gradient dout; repeat an id to see the mistake.",
    dims=(Dim("V", "v"), Dim("D", "i"), Dim("T", "t")),
    inputs=(
        Operand("E", "Embedding table, one row per token id", ("V", "D"), [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]),
        Operand("ids", "Token ids, each in [0, V)", ("T",), [2, 0, 2], integer=True),
        Operand("dout", "Gradient of the loss with respect to out", ("T", "D"), [[1, 1], [2, 2], [3, 3]]),
    ),
    compute=compute,
)
