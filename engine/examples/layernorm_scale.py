"""Widget kind ``layernorm_scale``: one pattern at a small and a large spread, each with its own offset, through
LayerNorm. Without epsilon the two outputs would be equal; the readout shows how far apart epsilon puts them, and
what the common mistake of putting epsilon outside the root does instead."""
import numpy as np

from .. import norms
from .fmt import format_compact, format_number, format_short
from .kind import Block, Dim, Kind, Operand, Result
from .svg import line_chart

EPS = norms.DEFAULT_EPS  # 1e-5, as in GPT-2 and PyTorch
SPREADS = np.logspace(-7, 0, 29)  # (S,) row standard deviations for the picture: 1e-7 to 1, four per decade
ROW_NAMES = ("t0, small spread", "t1, large spread")


def _eps_outside_root(x):
    """The mistake, (x - mean) / (std + eps): the stats are the engine's, only the place of eps differs."""
    _, cache = norms.layernorm_forward(x, np.ones(x.shape[-1]), np.zeros(x.shape[-1]), EPS)
    return (x - cache["mean"]) / (np.sqrt(cache["var"]) + EPS)  # (..., d)


def _gap_picture(pattern):
    """Largest distance of each norm's output from the scale-free one (the output with eps = 0), for the pattern
    stretched to each spread: it grows as the spread shrinks, from sqrt(eps) down with eps inside the root and only
    from eps down with eps outside."""
    centred = pattern - pattern.mean()  # (d,)
    unit = centred / centred.std()  # (d,): the scale-free output
    rows = SPREADS[:, None] * unit  # (S, d): standard deviation SPREADS[s] each
    inside, _ = norms.layernorm_forward(rows, np.ones_like(pattern), np.zeros_like(pattern), EPS)  # (S, d)
    outside = _eps_outside_root(rows)  # (S, d)
    return line_chart([("ε inside the root (LayerNorm)", np.log10(SPREADS), np.abs(inside - unit).max(axis=1)),
                       ("ε outside the root (the mistake)", np.log10(SPREADS), np.abs(outside - unit).max(axis=1))],
                      x_label="log10 of the row's spread σ", y_label="gap to the ε-free output",
                      log_y=True)


def compute(pattern, scale, offset, row):
    x = scale[:, None] * pattern + offset[:, None]  # (2, d): the same pattern, stretched and moved per row
    y, cache = norms.layernorm_forward(x, np.ones_like(pattern), np.zeros_like(pattern), EPS)  # (2, d)
    y_outside = _eps_outside_root(x)  # (2, d)
    var = cache["var"][:, 0]  # (2,)
    sigma, root = np.sqrt(var), 1 / cache["rstd"][:, 0]  # (2,), (2,)

    k = int(row)  # the toggle: which row the arithmetic spells out
    root_text = format_short(root[k], 6)  # 4 decimals would print a small row's root as 0.0039
    arithmetic = (f"Row t{k}: σ² = {format_short(var[k])}, √(σ² + {EPS:g}) = {root_text}, so entry 0 is "
                  f"({format_compact(x[k, 0])} - {format_compact(cache['mean'][k, 0])}) / {root_text} "
                  f"= {format_number(y[k, 0])}; with ε outside the root it would be "
                  f"{format_number(y_outside[k, 0])}")
    notes = (
        f"Rows t0 and t1 hold the same pattern, so without ε their outputs would be equal. With ε inside the root "
        f"(LayerNorm) they differ by up to {format_short(np.abs(y[1] - y[0]).max())}: row t{k} keeps "
        f"σ / √(σ² + ε) = {format_short(sigma[k] / root[k])} of the scale-free output.",
        f"With ε outside the root, (x - mean) / (σ + ε), they differ by up to "
        f"{format_short(np.abs(y_outside[1] - y_outside[0]).max())}, and row t{k} moves by up to "
        f"{format_short(np.abs(y_outside[k] - y[k]).max())} from the real LayerNorm: the mistake makes ε matter only "
        f"below a spread of about ε = {EPS:g}, where LayerNorm feels it from √ε ≈ {format_short(np.sqrt(EPS))}.",
    )
    plots = () if np.ptp(pattern) == 0 else (
        ("How far ε moves the output, as the spread shrinks", _gap_picture(pattern)),)
    return Result(
        blocks=(
            Block("x", "x = scale × pattern + offset, one row per spread", x, ("R", "d"), "step"),
            Block("sigma", "σ, the spread of each row", sigma, ("R",), "step"),
            Block("y", "LayerNorm of each row (γ = 1, β = 0), ε inside the root", y, ("R", "d")),
            Block("difference", "y[t1] - y[t0]: zero if ε were 0", y[1] - y[0], ("d",)),
            Block("y_outside", "the mistake: (x - mean) / (σ + ε)", y_outside, ("R", "d")),
        ),
        arithmetic=arithmetic, notes=notes if np.ptp(pattern) else (
            "A constant pattern has no spread: both rows normalise to zeros.",), plots=plots)


KIND = Kind(
    name="layernorm_scale",
    title="LayerNorm at two scales: where ε shows",
    description=("Edit the pattern, each row's scale and offset, or set row to 0 or 1 to spell out the small- or "
                 "the large-spread row; try a scale of 0.0001 or 0.01 for row t0."),
    dims=(Dim("R", "t", min=2, max=2, resizable=False), Dim("d", "i", min=2)),
    inputs=(
        Operand("pattern", "The pattern both rows share", ("d",), [-3, -1, 1, 3], bounds=(-1e4, 1e4)),
        Operand("scale", "How far each row stretches the pattern", ("R",), [0.001, 1000], bounds=(0, 1e4)),
        Operand("offset", "What each row adds to every entry", ("R",), [7, -2000], bounds=(-1e4, 1e4)),
        Operand("row", "Row to spell out: 0 = small spread, 1 = large spread", (), 0, integer=True, bounds=(0, 1)),
    ),
    compute=compute,
)
