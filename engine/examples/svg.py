"""Small SVG plots for widgets, made in Python so the build and the browser draw from one implementation.

Only numbers and escaped labels enter the markup; the browser inserts this string as the one piece of trusted SVG.
"""
import math
from html import escape

import numpy as np

from .fmt import format_short

WIDTH, HEIGHT, MARGIN = 320, 200, 36  # heat maps; line charts grow below the plot by one row per legend entry
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 8, 34  # line chart: room for y tick labels, x ticks and the x label
LEGEND_ROW = 14
MAX_POINTS = 300  # per line: about one per horizontal pixel of the plot at its largest size
MAX_CHART_WIDTH = 480  # px: the chart fills narrow columns (viewBox, width 100%) but stays legible on wide ones
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")


def line_chart(series, x_label="", y_label="", log_y=False, x_ticks=None):
    """``series``: list of (name, xs, ys). Non-finite points (and non-positive ones on a log axis) are skipped.

    Ticks sit at round values (whole powers of ten on a log axis), or at ``x_ticks``' (x, label) pairs along x; the
    y axis runs out to the round ticks around the data, so a peak never touches the frame above the last tick. The
    legend is a list under the plot, so it never covers a line however the data fall.
    """
    points = []
    for name, xs, ys in series:
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        keep = np.isfinite(xs) & np.isfinite(ys) & ((ys > 0) if log_y else True)
        xs, ys = xs[keep], ys[keep]
        if xs.size > MAX_POINTS:  # more points than the plot has pixels only cost time to format and draw
            every = np.unique(np.linspace(0, xs.size - 1, MAX_POINTS).round().astype(int))
            xs, ys = xs[every], ys[every]
        points.append((name, xs, np.log10(ys) if log_y else ys))
    all_x = np.concatenate([p[1] for p in points]) if points else np.zeros(0)
    all_y = np.concatenate([p[2] for p in points]) if points else np.zeros(0)
    if all_x.size == 0:
        return _frame("no finite values to plot", x_label, y_label, HEIGHT)
    x_range, y_range = _padded_range(all_x), None if log_y else _padded_range(all_y)
    if x_range is None or (not log_y and y_range is None):
        return _frame("values too far apart to plot", x_label, y_label, HEIGHT)
    x0, x1 = x_range
    if log_y:
        y0, y1, decades = _decade_axis(all_y)
        y_ticks = [(k, f"1e{k}") for k in decades]
    else:
        y0, y1 = _round_range(*y_range)
        y_ticks = _round_ticks(y0, y1)
    plot_bottom = HEIGHT - BOTTOM

    def sx(x):
        return LEFT + (x - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT)

    def sy(y):
        return plot_bottom - (y - y0) / (y1 - y0) * (plot_bottom - TOP)

    parts = []
    for value, label in y_ticks:
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{sy(value):.1f}" y2="{sy(value):.1f}" '
                     f'stroke="#eee"/>')
        parts.append(_text(LEFT - 4, sy(value) + 3, label, "end"))
    for value, label in x_ticks if x_ticks is not None else _round_ticks(x0, x1):
        parts.append(_text(sx(value), plot_bottom + 12, label, "middle"))
    for i, (name, xs, ys) in enumerate(points):
        colour = PALETTE[i % len(PALETTE)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(xs, ys))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
        row = HEIGHT + LEGEND_ROW * i + 4  # legend entries below the x label, one per row
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + 16}" y1="{row}" y2="{row}" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{LEFT + 20}" y="{row + 4}" font-size="11" fill="{colour}">{escape(name)}</text>')
    height = HEIGHT + LEGEND_ROW * len(points) + 4
    return _frame("".join(parts), x_label, y_label + (" (log scale)" if log_y and y_label else ""), height)


def _tick_step(low, high, target=5):
    """1, 2 or 5 times a power of ten, making about ``target`` steps from ``low`` to ``high``."""
    raw_step = (high - low) / target
    power = 10.0 ** math.floor(math.log10(raw_step))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw_step)


def _round_range(low, high):
    """[low, high] widened to the round ticks at or beyond each end; kept as given when a round end would pass the
    largest float (data near 1.7e308)."""
    step = _tick_step(low, high)
    rounded = math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step
    return rounded if math.isfinite(rounded[1] - rounded[0]) else (low, high)


def _round_ticks(low, high, target=5):
    """About ``target`` (value, label) pairs at multiples of 1, 2 or 5 times a power of ten within [low, high]."""
    step = _tick_step(low, high, target)
    first = math.ceil(low / step - 1e-9)
    values = [k * step for k in range(first, math.floor(high / step + 1e-9) + 1)]
    decimals = max(0, -math.floor(math.log10(step)))  # enough to tell neighbouring ticks apart
    return [(v, format_short(v, decimals)) for v in values]


def _decade_axis(log_values, most=6):
    """Whole exponents of ten as ticks, every n-th one when there would be more than ``most``; the axis runs from
    the first tick to the last, so both sit on the plot's edges. Returns (low, high, ticks)."""
    low, high = math.floor(float(log_values.min())), math.ceil(float(log_values.max()))
    step = max(1, math.ceil((high - low) / (most - 1)))
    count = max(1, math.ceil((high - low) / step))
    ticks = [low + step * k for k in range(count + 1)]
    return low, ticks[-1], ticks


HEAT_CELL, HEAT_TEXT, HEAT_LABEL = 48, 13, 12  # px: a cell, the value in it, a row or column label
DEEPEST = 70  # of 255: the strongest tint keeps some white, so dark text on red reads (5.6:1) and white on blue


def heat_map(matrix, row_labels, col_labels, title=""):
    """A coloured grid (blue negative, white zero, red positive) with each value written in its cell, in black or
    white, whichever reads better on the cell's colour."""
    matrix = np.asarray(matrix, dtype=float)  # (R, C)
    rows, cols = matrix.shape
    cell = HEAT_CELL
    scale = np.max(np.abs(matrix[np.isfinite(matrix)]), initial=0.0) or 1.0
    parts = []
    for r in range(rows):
        parts.append(_text(MARGIN - 4, MARGIN + cell * r + cell / 2 + 4, row_labels[r], "end", HEAT_LABEL))
        for c in range(cols):
            value = matrix[r, c]
            x, y = MARGIN + cell * c, MARGIN + cell * r
            fill = _colour(value, scale)
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="rgb{fill}" '
                         f'stroke="#888" stroke-width="0.5"/>')
            parts.append(_text(x + cell / 2, y + cell / 2 + 4, format_short(value, 2), "middle", HEAT_TEXT,
                               _text_colour(fill)))
    for c in range(cols):
        parts.append(_text(MARGIN + cell * c + cell / 2, MARGIN - 6, col_labels[c], "middle", HEAT_LABEL))
    width, height = MARGIN + cell * cols + 8, MARGIN + cell * rows + 8
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="{escape(title)}">{"".join(parts)}</svg>')


def _colour(value, scale):
    """The cell's (r, g, b): white at 0, towards red (positive) or blue (negative), grey when not finite."""
    if not math.isfinite(value):
        return (187, 187, 187)
    strength = int(255 - (255 - DEEPEST) * min(abs(value) / scale, 1.0))
    return (255, strength, strength) if value > 0 else (strength, strength, 255)


def _luminance(rgb):
    """WCAG 2's relative luminance of an sRGB colour."""
    channels = [c / 255 for c in rgb]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _text_colour(fill):
    """Black or white, whichever contrasts more with ``fill``."""
    on_black = (_luminance(fill) + 0.05) / 0.05
    on_white = 1.05 / (_luminance(fill) + 0.05)
    return "#000" if on_black >= on_white else "#fff"


def _padded_range(values):
    """(low, high) of finite ``values``, widened around a single value (by 1, or a billionth of a huge one, which
    1 would not move); None when the span passes the largest float (1e308 and -1e308), which no axis can divide."""
    low, high = float(values.min()), float(values.max())
    if high - low < 1e-12:
        pad = max(1.0, abs(low) * 1e-9)
        low, high = low - pad, high + pad
    return (low, high) if math.isfinite(high - low) else None


def _text(x, y, label, anchor, size=10, colour=None):
    fill = f' fill="{colour}"' if colour else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"{fill}>'
            f'{escape(str(label))}</text>')


def _frame(body, x_label, y_label, height):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
            f'style="max-width: {MAX_CHART_WIDTH}px" role="img" '
            f'aria-label="{escape(y_label)} against {escape(x_label)}">'
            f'<rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" height="{HEIGHT - TOP - BOTTOM}" '
            f'fill="none" stroke="#ccc"/>{body}'
            f'{_text(LEFT + (WIDTH - LEFT - RIGHT) / 2, HEIGHT - 6, x_label, "middle")}'
            f'<text x="10" y="{(HEIGHT - BOTTOM + TOP) / 2}" font-size="10" text-anchor="middle" '
            f'transform="rotate(-90 10 {(HEIGHT - BOTTOM + TOP) / 2})">{escape(y_label)}</text></svg>')


TOKEN_FONT, TOKEN_CHAR, TOKEN_LINE, TOKEN_PAD = 11, 7.0, 30, 3  # monospace: every character is one width
TOKEN_WIDTH = 320  # px: boxes wrap onto another line past this, so a phone shows the picture at full size
TOKEN_LABEL = 16  # px: the line above each stage's boxes that names it


def token_rows(rows, title=""):
    """Stages of a tokenisation as boxes under a line naming each: ``rows`` is ``[(label, [(text, id)])]``; each
    box shows its piece of text above its id, so a merge reads as two boxes becoming one. A stage's boxes wrap."""
    parts, y = [], 0
    for r, (label, tokens) in enumerate(rows):
        if r:
            parts.append(f'<line x1="0" x2="{TOKEN_WIDTH}" y1="{y + 2}" y2="{y + 2}" stroke="#ddd"/>')
        parts.append(_text(0, y + TOKEN_LABEL - 3, label, "start", TOKEN_FONT))
        x, y = 0.0, y + TOKEN_LABEL
        for text, token_id in tokens:
            width = TOKEN_CHAR * max(len(text), len(str(token_id))) + 2 * TOKEN_PAD
            if x and x + width > TOKEN_WIDTH:
                x, y = 0.0, y + TOKEN_LINE
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="{TOKEN_LINE - 6}" rx="3" '
                         f'fill="#eef4fb" stroke="#1f77b4" stroke-width="0.8"/>')
            parts.append(_text(x + width / 2, y + 11, text, "middle", TOKEN_FONT))
            parts.append(_text(x + width / 2, y + 21, token_id, "middle", 9, "#444"))
            x += width + 2
        y += TOKEN_LINE
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 0 {TOKEN_WIDTH + 2} {y}" width="100%" '
            f'style="max-width: {TOKEN_WIDTH + 2}px" role="img" aria-label="{escape(title)}" font-family="monospace">'
            f'{"".join(parts)}</svg>')
