"""Number formatting and the SVG helpers shared by every widget kind."""
import re
import xml.etree.ElementTree as ET

import numpy as np

import pytest

from engine.examples.fmt import format_compact, format_input, format_number, format_short, quoted_line
from engine.examples.svg import heat_map, line_chart
from wcag import relative_luminance


@pytest.mark.parametrize("value, text", [
    (1, "1.0000"), (-1 / 3, "-0.3333"), (-0.0, "0.0000"), (0, "0.0000"), (2.5e8, "2.500e+08"),
    # scientific below 1e-4 and from 1e6 on, in magnitude
    (-0.00001, "-1.000e-05"), (8e-9, "8.000e-09"), (0.0001, "0.0001"), (0.00009999, "9.999e-05"),
    (999999.0, "999999.0000"), (1e6, "1.000e+06"), (-7.97e11, "-7.970e+11"),
    (float("nan"), "nan"), (float("inf"), "inf"), (float("-inf"), "-inf"),
])
def test_format_number(value, text):
    assert format_number(value) == text


def test_format_compact_and_input():
    assert [format_compact(v) for v in (2.0, -0.5, 1 / 3, -1.5e-7)] == ["2", "(-0.5)", "0.3333", "(-1.5e-07)"]
    assert [format_short(v) for v in (2.0, -0.5, 1e-9, 7.97e11)] == ["2", "-0.5", "1e-09", "7.97e+11"]
    assert [format_input(v) for v in (1.0, 0.1, -2.5, 1e20)] == ["1", "0.1", "-2.5", "1e+20"]


def test_sampled_text_is_quoted_on_one_line_with_its_breaks_written_as_in_verse():
    assert quoted_line("ve\nWde the\n\nAnd") == "\u201cve / Wde the // And\u201d"  # not 've\\nWde' (a repr)


def test_svg_is_well_formed_and_escapes_labels():
    chart = line_chart([("<script>alert(1)</script>", [0, 1, 2], [1, 10, 0])], "x & y", "std", log_y=True)
    root = ET.fromstring(chart)
    assert root.find(".//{http://www.w3.org/2000/svg}script") is None
    assert "<script>" not in chart and "&lt;script&gt;" in chart
    assert len(root.findall(".//{http://www.w3.org/2000/svg}polyline")) == 1
    grid = ET.fromstring(heat_map([[1.0, -2.0], [0.0, float("nan")]], ["t0", "t1"], ["<b>", "k1"], "scores"))
    assert len(grid.findall(".//{http://www.w3.org/2000/svg}rect")) == 4


def test_line_chart_with_nothing_finite_says_so():
    assert "no finite values to plot" in line_chart([("s", [0, 1], [float("nan"), float("inf")])])


def test_line_chart_at_the_ends_of_the_float_range_draws_or_says_why_not():
    # the review's F8: a constant line at 1e308 (padding by 1 does not move it) and a span from 1e-308 to 1e308
    # raised math errors; a span wider than the largest float cannot be divided into ticks at all
    for ys in ([1e308, 1e308], [1e-308, 1e308], [5e-324, 5e-324]):
        assert "<polyline" in line_chart([("s", [0, 1], ys)], "x", "y")
    assert "values too far apart to plot" in line_chart([("s", [0, 1], [-1e308, 1e308])], "x", "y")
    assert "values too far apart to plot" in line_chart([("s", [-1e308, 1e308], [0, 1])], "x", "y")


SVG = "{http://www.w3.org/2000/svg}"


def texts(svg):
    """(x, y, text) of every label in the chart."""
    return [(float(t.get("x")), float(t.get("y")), t.text) for t in ET.fromstring(svg).iter(SVG + "text")]


def test_log_axis_ticks_sit_on_whole_powers_of_ten():
    # values from 8e-9 to 2e3: ticks must be 1eK for whole K, spanning the decades -9 .. 4
    chart = line_chart([("a", [0, 1, 2], [8e-9, 1.0, 2e3])], "x", "y", log_y=True)
    y_ticks = [label for x, _, label in texts(chart) if label.startswith("1e")]
    assert y_ticks and all(re.fullmatch(r"1e-?\d+", label) for label in y_ticks), y_ticks
    exponents = [int(label[2:]) for label in y_ticks]
    assert exponents[0] == -9 and exponents[-1] >= 4 and len(set(np.diff(exponents))) == 1


def test_linear_ticks_are_round_and_negatives_read_with_a_minus_sign():
    chart = line_chart([("a", [-1, 0, 1], [-0.5, 0.25, 0.5])], "x", "y")
    labels = [label for _, _, label in texts(chart)]
    assert "-0.5" in labels and "0.5" in labels and "-1" in labels and "1" in labels
    assert not any("(" in label for label in labels)


def test_the_y_axis_runs_to_a_round_tick_above_the_highest_point_and_x_ticks_can_be_named():
    # peaks of 0.68 (the residual stream's RMS): before, the axis ended at 0.68, the line touched the frame and the
    # highest tick read 0.6
    chart = line_chart([("rms", [0, 1, 2], [0.13, 0.68, 0.41])], "x", "y", x_ticks=[(0, "a"), (1, "␣"), (2, "<")])
    root = ET.fromstring(chart)
    frame = root.find(SVG + "rect")
    top = float(frame.get("y"))
    line = [float(point.split(",")[1]) for point in root.find(SVG + "polyline").get("points").split()]
    assert min(line) > top + 5  # headroom above the peak
    y_ticks = [float(label) for x, _, label in texts(chart) if re.fullmatch(r"[\d.]+", label)]
    assert max(y_ticks) >= 0.68 and 0.6 in y_ticks
    assert [label for label in (t for _, _, t in texts(chart)) if label in ("a", "␣", "<")] == ["a", "␣", "<"]


def test_legend_sits_below_the_plot_area_and_the_chart_scales_with_its_column():
    names = ["first line", "second line", "third line"]
    chart = line_chart([(n, [0, 1], [1, 2]) for n in names], "x", "y")
    root = ET.fromstring(chart)
    frame = root.find(SVG + "rect")
    plot_bottom = float(frame.get("y")) + float(frame.get("height"))
    legend = [(y, label) for _, y, label in texts(chart) if label in names]
    assert len(legend) == 3 and all(y > plot_bottom + 10 for y, _ in legend)  # below the x tick labels too
    _, _, _, view_height = (float(v) for v in root.get("viewBox").split())
    assert max(y for y, _ in legend) < view_height  # and inside the picture
    assert root.get("width") == "100%" and root.get("height") is None


def test_long_series_are_thinned_to_the_plots_resolution_keeping_both_ends():
    xs = np.arange(5000)
    chart = line_chart([("long", xs, np.sin(xs / 300.0))], "x", "y")
    (line,) = ET.fromstring(chart).iter(SVG + "polyline")
    points = line.get("points").split()
    assert 100 <= len(points) <= 400  # a 266-unit-wide plot cannot show more
    frame = ET.fromstring(chart).find(SVG + "rect")  # the plot area; the x axis spans the data exactly
    left, right = float(frame.get("x")), float(frame.get("x")) + float(frame.get("width"))
    assert float(points[0].split(",")[0]) == left and float(points[-1].split(",")[0]) == right


def _rgb(colour):
    if colour.startswith("rgb("):
        return tuple(int(v) for v in colour[4:-1].split(","))
    full = {"#000": "#000000", "#fff": "#ffffff"}.get(colour, colour)
    return tuple(int(full[i:i + 2], 16) for i in (1, 3, 5))


def test_heat_map_values_are_readable_on_every_cell():
    # the strongest red and blue (the largest |value|), pale ones, zero and a non-finite cell
    grid = ET.fromstring(heat_map([[1.0, -1.0, 0.1], [0.0, -0.3, float("nan")]], ["q0", "q1"], ["k0", "k1", "k2"]))
    rects = [r.get("fill") for r in grid.iter(SVG + "rect")]
    values = [t for t in grid.iter(SVG + "text") if t.text not in ("q0", "q1", "k0", "k1", "k2")]
    assert len(rects) == len(values) == 6
    for fill, text in zip(rects, values):
        dark, light = sorted([relative_luminance(_rgb(fill)), relative_luminance(_rgb(text.get("fill", "#000")))])
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (fill, text.get("fill"), text.text)  # WCAG AA
        assert float(text.get("font-size")) >= 12, text.text  # 9 px before
    labels = [t for t in grid.iter(SVG + "text") if t.text in ("q0", "k0")]
    assert all(float(t.get("font-size")) >= 12 for t in labels)
