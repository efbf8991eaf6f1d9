"""Widget kind ``initialisation``: the signal-propagation experiment, the activations' standard deviation after each
of ``depth`` Linear + ReLU layers of width ``width``, for several weight scales, drawn on a log scale."""
import math
from functools import lru_cache

import numpy as np

from .. import init
from ..errors import LayerwiseError
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result
from .svg import line_chart

MAX_DEPTH, MAX_WIDTH = 20, 512
SAMPLES = 32  # random inputs; the std is taken over SAMPLES * width numbers, plenty for a picture


def _check_size(name, value, low, high):
    if not low <= value <= high:
        raise LayerwiseError(f"initialisation example: {name} must be a whole number from {low} to {high}, "
                             f"got {value}")
    return int(value)


def _schemes(width, std):
    """(block name, legend, the weight std it stands for) for each line of the picture."""
    return (
        ("std_1", "std 1", 1.0),
        ("std_0_01", "std 0.01", 0.01),
        ("xavier", f"Xavier √(1/{width})", math.sqrt(1.0 / width)),
        ("he", f"He √(2/{width})", math.sqrt(2.0 / width)),
        ("yours", f"yours {format_compact(std)}", std),
    )


@lru_cache(maxsize=16)
def unit_run(depth, width):
    """The stds of one run with unit-std weights; memoised, so editing the std (the widget's main knob) costs no
    new run: drawing depth × width² normals is what takes the time."""
    stds = init.signal_propagation(1.0, num_layers=depth, width=width, num_samples=SAMPLES)  # (L,)
    stds.flags.writeable = False  # shared by every later call
    return stds


def compute(depth, width, std):
    depth = _check_size("depth", depth, 1, MAX_DEPTH)
    width = _check_size("width", width, 2, MAX_WIDTH)
    std = float(std)
    # One run with unit-std weights serves every scheme: signal_propagation draws the same matrices for any std,
    # only scaled, and ReLU(c z) = c ReLU(z) for c > 0, so with std s layer l's std is exactly s^l times the unit
    # run's. Five runs would cost five times as much in the browser for the same numbers (the tests check this).
    unit = unit_run(depth, width)  # (L,)
    layers = np.arange(1, depth + 1)  # (L,)
    blocks, series, factors = [], [], []
    for name, label, sigma in _schemes(width, std):
        stds = sigma**layers * unit  # (L,)
        blocks.append(Block(name, f"weights {label}: std after each layer", stds, ("L",)))
        series.append((label, range(depth), stds))  # layers numbered from 0, as in the tables
        factors.append(f"{label}: {format_compact(math.sqrt(width * sigma**2 / 2), 3)}")
    he_std = math.sqrt(2.0 / width)
    arithmetic = (f"He with width {width}: std √(2 / {width}) = {format_number(he_std)}, so each layer multiplies "
                  f"the variance by ½ × {width} × {format_number(he_std)}² = {format_compact(width * he_std**2 / 2)}")
    plot = line_chart(series, x_label="layer", y_label="std of the activations", log_y=True)
    notes = (
        "Predicted factor per layer on the std, √(width × std² / 2): " + "; ".join(factors) + ".",
        f"Measured on {SAMPLES} random inputs of std 1 (the page's table uses 1000, so the last digits differ), in one "
        f"run with std 1 rescaled: the same draws with std s give s^l times the std after layer l.",
    )
    return Result(blocks=tuple(blocks), arithmetic=arithmetic, notes=notes,
                  plots=(("Std of the activations through depth (log scale)", plot),))


KIND = Kind(
    name="initialisation",
    title="Signal propagation through Linear + ReLU layers",
    description="Change the depth, the width or your own weight std; each line is one initialisation.",
    dims=(Dim("L", "layer ", min=1, max=MAX_DEPTH, resizable=False),),
    inputs=(
        Operand("depth", "Number of Linear + ReLU layers", (), 10, integer=True),
        Operand("width", "Width of every layer", (), 512, integer=True),
        Operand("std", "Your own weight standard deviation", (), 0.05, bounds=(0.001, 10)),
    ),
    compute=compute,
)
