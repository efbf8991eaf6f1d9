"""Places a scaffolded file leaves for its author, and the check that none is left.

A place runs from a marker `FILL-IN <place>: <what to write>` to the next `END FILL-IN`; what lies between is a
stand-in that keeps the site building. In Python the markers are comment lines (`# FILL-IN forward: ...` ...
`# END FILL-IN`), in Markdown HTML comments (`<!-- FILL-IN what-it-is: ... -->` ... `<!-- END FILL-IN -->`).
Filling a place replaces it whole, markers included. The strict build warns once per place still there.
"""
import re
from pathlib import Path

_PYTHON = re.compile(r"^[ \t]*# FILL-IN (?P<place>[\w-]+): (?P<what>[^\n]*)\n.*?^[ \t]*# END FILL-IN[ \t]*\n",
                     re.M | re.S)
_MARKDOWN = re.compile(r"<!-- FILL-IN (?P<place>[\w-]+): (?P<what>.*?) -->.*?<!-- END FILL-IN -->", re.S)
# every opening and closing marker, paired or not (in a Python file only comment lines count)
_MARKERS = {".py": re.compile(r"^[ \t]*# (?:END )?FILL-IN\b", re.M), ".md": re.compile(r"<!-- (?:END )?FILL-IN\b")}
SUFFIXES = {".py": _PYTHON, ".md": _MARKDOWN}


def places(text, suffix):
    """``(place, what, line)`` for each place in ``text`` (a file's text with that suffix), and the lines of
    markers that open or close no place (an END without its FILL-IN, or the reverse)."""
    pattern = SUFFIXES[suffix]
    found, spans = [], []
    for match in pattern.finditer(text):
        found.append((match["place"], match["what"].strip(), text.count("\n", 0, match.start("place")) + 1))
        spans.append(match.span())
    stray = [text.count("\n", 0, m.start()) + 1 for m in _MARKERS[suffix].finditer(text)
             if not any(start <= m.start() < end for start, end in spans)]
    return found, stray


def unfilled(root, folders, exclude=()):
    """One message per place left in the ``.py`` and ``.md`` files under ``root/<folder>``, naming file, line and
    place, and one per stray marker."""
    root = Path(root)
    messages = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.suffix not in SUFFIXES or not path.is_file() or relative.startswith(tuple(exclude)):
                continue
            text = path.read_text(encoding="utf-8")
            if "FILL-IN" not in text:
                continue
            found, stray = places(text, path.suffix)
            messages += [f"{relative}:{line}: place '{place}' is not filled yet: {what}" for place, what, line in found]
            messages += [f"{relative}:{line}: a FILL-IN marker without its pair (a place runs from "
                         f"'FILL-IN <place>: ...' to 'END FILL-IN')" for line in stray]
    return messages


def fill(text, suffix, fills):
    """``text`` with each place named in ``fills`` (place -> text) replaced by that text; others are left."""
    return SUFFIXES[suffix].sub(lambda m: fills.get(m["place"], m.group(0)), text)
