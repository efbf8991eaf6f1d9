"""Number formatting for widgets, done in Python so pre-rendered pages and live updates show identical strings."""
import math

DECIMALS = 4
SCIENTIFIC_FROM = 1e7  # beyond this, fixed decimals would print long runs of digits


def format_number(x, decimals=DECIMALS):
    """Fixed decimals (``-1.0000``), ``1.2346e+08`` for huge values, ``nan``/``inf``/``-inf`` when not finite."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    text = f"{x:.{decimals - 1}e}" if abs(x) >= SCIENTIFIC_FROM else f"{x:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.0000"


def format_compact(x, decimals=DECIMALS):
    """A number inside a sentence: ``2``, ``-0.5``, ``0.3333`` (trailing zeros dropped), negatives in parentheses."""
    text = format_number(x, decimals)
    if "." in text and "e" not in text:
        text = text.rstrip("0").rstrip(".")
    return f"({text})" if text.startswith("-") else text


def format_input(x):
    """An input cell's text: the shortest string that reads back as the same float (``1``, ``0.1``, ``-2.5``)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)
