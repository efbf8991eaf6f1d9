"""Widget kind ``dropout``: inverted dropout on an editable matrix, with the mask drawn from a seeded generator.

Shows the mask over the matrix, the forward and the backward (same mask), a gradient check, the running mean over
many draws (kept at the input's mean by the 1/(1-p)), and the two classic mistakes: no 1/(1-p), and a fresh mask in
the backward.
"""
from html import escape

import numpy as np

from ..errors import LayerwiseError
from ..dropout import dropout_backward, dropout_forward, dropout_mask
from .fmt import format_compact, format_number, format_short
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap
from .svg import line_chart

MEAN_DRAWS = 2000  # enough for the running mean to settle visibly within a few percent
CELL = 40


def _mask_grid(x, mask):
    """The input matrix, each cell showing its x; dropped cells are greyed and struck through."""
    rows, cols = x.shape
    margin = 28
    parts = []
    for r in range(rows):
        parts.append(f'<text x="{margin - 4}" y="{margin + CELL * r + CELL / 2 + 4}" text-anchor="end" '
                     f'font-size="10">t{r}</text>')
        for c in range(cols):
            x0, y0 = margin + CELL * c, margin + CELL * r
            kept = bool(mask[r, c])
            fill = "#d9f2d9" if kept else "#d0d0d0"
            parts.append(f'<rect x="{x0}" y="{y0}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#888" '
                         f'stroke-width="0.5"/>')
            parts.append(f'<text x="{x0 + CELL / 2}" y="{y0 + CELL / 2 + 4}" text-anchor="middle" font-size="10">'
                         f'{escape(format_short(x[r, c], 2))}'
                         f'</text>')
            if not kept:
                parts.append(f'<line x1="{x0 + 4}" y1="{y0 + 4}" x2="{x0 + CELL - 4}" y2="{y0 + CELL - 4}" '
                             f'stroke="#a33" stroke-width="1.5"/>')
    for c in range(cols):
        parts.append(f'<text x="{margin + CELL * c + CELL / 2}" y="{margin - 6}" text-anchor="middle" '
                     f'font-size="10">j{c}</text>')
    width, height = margin + CELL * cols + 8, margin + CELL * rows + 8
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="the input with dropped entries struck through">'
            f'{"".join(parts)}</svg>')


def running_means(x, p, seed, draws=MEAN_DRAWS):
    """Mean of all output entries averaged over the first n draws, n = 1..draws: with and without 1/(1-p)."""
    rng = np.random.default_rng(seed)
    masks = dropout_mask((draws,) + x.shape, p, rng)  # (N, T, d)
    outputs, _ = dropout_forward(np.broadcast_to(x, masks.shape), p, masks)  # (N, T, d)
    per_draw = outputs.reshape(draws, -1).mean(axis=1)  # (N,)
    counts = np.arange(1, draws + 1)
    with_scale = np.cumsum(per_draw) / counts
    return with_scale, with_scale * (1.0 - p)  # forgetting the division scales every output by (1 - p)


def compute(x, dy, p, seed):
    p, seed = float(p), int(seed)
    if seed < 0:
        raise LayerwiseError(f"dropout example: seed must be 0 or more, got {seed}")
    mask = dropout_mask(x.shape, p, np.random.default_rng(seed))  # (T, d) bool
    y, cache = dropout_forward(x, p, mask)  # (T, d)
    dx = dropout_backward(dy, cache)  # (T, d)

    # the loss sum(y * dy) has gradient dy on y, so its gradient on x is what the backward must return
    def loss():
        return float(np.sum(dropout_forward(x, p, mask)[0] * dy))

    def gap():  # deferred, so the outputs show at once
        return gradient_gap(loss, {"x": x}, {"x": dx})

    fresh_mask = dropout_mask(x.shape, p, np.random.default_rng(seed + 1))  # a second, unrelated draw
    fresh_gap = gradient_gap(loss, {"x": x}, {"x": dropout_backward(dy, {"mask": fresh_mask, "p": p})})
    fresh_note = ("Mistake: a fresh mask in the backward (seed + 1) happens to equal this one here; try another seed."
                  if np.array_equal(fresh_mask, mask) else
                  f"Mistake: a fresh mask in the backward (seed + 1) differs from central differences by up to "
                  f"{format_compact(fresh_gap)}.")

    with_scale, without_scale = running_means(x, p, seed)
    draws = np.arange(1, MEAN_DRAWS + 1)
    target = float(x.mean())
    mean_plot = line_chart(
        [("with 1/(1-p)", draws, with_scale), ("without", draws, without_scale),
         ("mean of x", [1, MEAN_DRAWS], [target, target])],
        x_label="number of draws", y_label="mean of y over the draws")

    arithmetic = (f"y[t0, j0] = x × m / (1 − p) = {format_compact(x[0, 0])} × {int(mask[0, 0])} / "
                  f"{format_compact(1 - p)} = {format_number(y[0, 0])}")
    notes = (
        f"Kept {int(mask.sum())} of {mask.size} entries; each kept entry is multiplied by 1/(1 − p) = "
        f"{format_compact(1 / (1 - p))}.",
        f"Mean over {MEAN_DRAWS} draws: {format_compact(with_scale[-1])} with the division, "
        f"{format_compact(without_scale[-1])} without it; the input's mean is {format_compact(target)}.",
        fresh_note,
        "At evaluation (no mask) the output is the input itself.",
    )
    return Result(
        blocks=(
            Block("mask", "m: 1 = kept, 0 = dropped", mask, ("T", "d"), "step"),
            Block("y", "y = x * m / (1 - p)", y, ("T", "d")),
            Block("dx", "dx = dy * m / (1 - p)", dx, ("T", "d"), "backward"),
        ),
        arithmetic=arithmetic,
        gradient_gap=gap,
        notes=notes,
        plots=(("The mask drawn over x", _mask_grid(x, mask)),
               ("The mean is preserved over many draws", mean_plot)),
    )


KIND = Kind(
    name="dropout",
    title="Inverted dropout, forward and backward",
    dims=(Dim("T", "t", 1, 6), Dim("d", "j", 1, 8)),
    inputs=(
        Operand("x", "input", ("T", "d"), [[1.0, 1.0, 1.0, 1.0]]),
        Operand("dy", "gradient on the output", ("T", "d"), [[1.0, 2.0, 3.0, 4.0]]),
        Operand("p", "probability of dropping an entry", (), 0.5, bounds=(0, 0.95)),
        Operand("seed", "seed of the random generator", (), 9, integer=True),
    ),
    compute=compute,
    description="Seed 9 with p = 0.5 draws the mask (1, 0, 1, 1) for the first row.",
)
