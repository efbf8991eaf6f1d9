"""Number formatting and the SVG helpers shared by every widget kind."""
import xml.etree.ElementTree as ET

import pytest

from engine.examples.fmt import format_compact, format_input, format_number
from engine.examples.svg import heat_map, line_chart


@pytest.mark.parametrize("value, text", [
    (1, "1.0000"), (-1 / 3, "-0.3333"), (-0.00001, "0.0000"), (-0.0, "0.0000"), (2.5e8, "2.500e+08"),
    (float("nan"), "nan"), (float("inf"), "inf"), (float("-inf"), "-inf"),
])
def test_format_number(value, text):
    assert format_number(value) == text


def test_format_compact_and_input():
    assert [format_compact(v) for v in (2.0, -0.5, 1 / 3)] == ["2", "(-0.5)", "0.3333"]
    assert [format_input(v) for v in (1.0, 0.1, -2.5, 1e20)] == ["1", "0.1", "-2.5", "1e+20"]


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
