"""Small SVG plots for widgets, made in Python so the build and the browser draw from one implementation.

Only numbers and escaped labels enter the markup; the browser inserts this string as the one piece of trusted SVG.
"""
import math
from html import escape

import numpy as np

from .fmt import format_compact

WIDTH, HEIGHT, MARGIN = 320, 200, 36
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")


def line_chart(series, x_label="", y_label="", log_y=False):
    """``series``: list of (name, xs, ys). Non-finite points (and non-positive ones on a log axis) are skipped."""
    points = []
    for name, xs, ys in series:
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        keep = np.isfinite(xs) & np.isfinite(ys) & ((ys > 0) if log_y else True)
        points.append((name, xs[keep], np.log10(ys[keep]) if log_y else ys[keep]))
    all_x = np.concatenate([p[1] for p in points]) if points else np.zeros(0)
    all_y = np.concatenate([p[2] for p in points]) if points else np.zeros(0)
    if all_x.size == 0:
        return _frame("no finite values to plot", x_label, y_label)
    x0, x1 = _padded_range(all_x)
    y0, y1 = _padded_range(all_y)

    def sx(x):
        return MARGIN + (x - x0) / (x1 - x0) * (WIDTH - 2 * MARGIN)

    def sy(y):
        return HEIGHT - MARGIN - (y - y0) / (y1 - y0) * (HEIGHT - 2 * MARGIN)

    parts = []
    for i, (name, xs, ys) in enumerate(points):
        colour = PALETTE[i % len(PALETTE)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(xs, ys))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
        parts.append(f'<text x="{WIDTH - MARGIN}" y="{MARGIN - 20 + 12 * i}" text-anchor="end" font-size="11" '
                     f'fill="{colour}">{escape(name)}</text>')
    tick = (lambda v: "1e" + format_compact(v, 1).strip("()")) if log_y else (lambda v: format_compact(v, 2))
    parts += [_text(MARGIN - 4, sy(y0), tick(y0), "end"), _text(MARGIN - 4, sy(y1), tick(y1), "end"),
              _text(sx(x0), HEIGHT - MARGIN + 14, format_compact(x0, 2), "middle"),
              _text(sx(x1), HEIGHT - MARGIN + 14, format_compact(x1, 2), "middle")]
    return _frame("".join(parts), x_label, y_label + (" (log scale)" if log_y and y_label else ""))


def heat_map(matrix, row_labels, col_labels, title=""):
    """A coloured grid (blue negative, white zero, red positive) with each value written in its cell."""
    matrix = np.asarray(matrix, dtype=float)  # (R, C)
    rows, cols = matrix.shape
    cell = min(40, (WIDTH - MARGIN) // max(cols, 1))
    scale = np.max(np.abs(matrix[np.isfinite(matrix)]), initial=0.0) or 1.0
    parts = []
    for r in range(rows):
        parts.append(_text(MARGIN - 4, MARGIN + cell * r + cell / 2 + 4, row_labels[r], "end"))
        for c in range(cols):
            value = matrix[r, c]
            x, y = MARGIN + cell * c, MARGIN + cell * r
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{_colour(value, scale)}" '
                         f'stroke="#888" stroke-width="0.5"/>')
            parts.append(_text(x + cell / 2, y + cell / 2 + 4, format_compact(value, 2).strip("()"), "middle", 9))
    for c in range(cols):
        parts.append(_text(MARGIN + cell * c + cell / 2, MARGIN - 6, col_labels[c], "middle"))
    width, height = MARGIN + cell * cols + 8, MARGIN + cell * rows + 8
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="{escape(title)}">{"".join(parts)}</svg>')


def _colour(value, scale):
    if not math.isfinite(value):
        return "#bbbbbb"
    strength = int(255 * (1 - min(abs(value) / scale, 1.0)))
    return f"rgb(255,{strength},{strength})" if value > 0 else f"rgb({strength},{strength},255)"


def _padded_range(values):
    low, high = float(values.min()), float(values.max())
    if high - low < 1e-12:
        return low - 1.0, high + 1.0
    return low, high


def _text(x, y, label, anchor, size=10):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}">{escape(str(label))}</text>'


def _frame(body, x_label, y_label):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}" role="img" aria-label="{escape(y_label)} against {escape(x_label)}">'
            f'<rect x="{MARGIN}" y="{MARGIN - 24}" width="{WIDTH - 2 * MARGIN}" height="{HEIGHT - 2 * MARGIN + 24}" '
            f'fill="none" stroke="#ccc"/>{body}'
            f'{_text(WIDTH / 2, HEIGHT - 6, x_label, "middle")}'
            f'<text x="12" y="{HEIGHT / 2}" font-size="10" text-anchor="middle" '
            f'transform="rotate(-90 12 {HEIGHT / 2})">{escape(y_label)}</text></svg>')
