"""Number formatting for widgets, done in Python so pre-rendered pages and live updates show identical strings."""
import math
import re

DECIMALS = 4
# Outside [SCIENTIFIC_BELOW, SCIENTIFIC_FROM) fixed decimals would print 0.0000 or long runs of digits.
SCIENTIFIC_BELOW, SCIENTIFIC_FROM = 1e-4, 1e6


def format_number(x, decimals=DECIMALS):
    """Fixed decimals (``-1.0000``); ``8.000e-09`` and ``7.970e+11`` for tiny and huge magnitudes (zero stays
    ``0.0000``); ``nan``/``inf``/``-inf`` when not finite."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x != 0 and not SCIENTIFIC_BELOW <= abs(x) < SCIENTIFIC_FROM:
        return f"{x:.{max(decimals - 1, 0)}e}"
    text = f"{x:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.0000"


def format_integer(x):
    """A value that is a whole number by nature (a mask entry, a one-hot entry, a token id, a count): ``1``, ``0``,
    ``12``, ``-3``; booleans as ``1`` and ``0``."""
    return str(int(x))


def format_short(x, decimals=DECIMALS):
    """A number on its own (a tick label, a cell of a picture): ``2``, ``-0.5``, ``0.3333``, ``1.5e-07``."""
    mantissa, e, exponent = format_number(x, decimals).partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")  # trailing zeros dropped
    return mantissa + e + exponent


def format_compact(x, decimals=DECIMALS):
    """A number inside a sentence: :func:`format_short`, negatives in parentheses (``2 × (-0.5)``)."""
    text = format_short(x, decimals)
    return f"({text})" if text.startswith("-") else text


def format_input(x):
    """An input cell's text: the shortest string that reads back as the same float (``1``, ``0.1``, ``-2.5``)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def quoted_line(text):
    """Sampled text quoted on one line, its line breaks written as verse is quoted: " / ", and " // " between
    stanzas (a Python repr showed literal backslashes: 've\\nWde')."""
    return "\u201c" + re.sub(r"\n{2,}", " // ", text).replace("\n", " / ") + "\u201d"
