"""A formula's plain-text form, read from the MathML that KaTeX writes beside its HTML: what the search index holds
instead of raw TeX, so an excerpt reads ``x = (1, 2, 3, 4)`` or ``σ² = 1/d ∑_i (x_i − μ)²``, not ``\\(x = ...\\)``."""
from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

SPACED = set("=+−-×⋅·<>≤≥≈≠→←↦∈∝∼⊙∘") | {"\u2061"}  # binary operators and relations read with spaces around
ACCENTS = {"^": "\u0302", "ˆ": "\u0302", "~": "\u0303", "˜": "\u0303", "ˉ": "\u0304", "‾": "\u0305", "¯": "\u0304",
           "˙": "\u0307", "→": "\u20d7"}  # \hat, \tilde, \bar, \overline, \dot, \vec as combining marks
SUPERSCRIPTS = str.maketrans("0123456789+−-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻")
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
TOKENS = {"mi", "mn", "mo", "mtext", "ms"}
BIG_OPERATORS = set("∑∏∫∮⋃⋂")


class _Element:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []


class _MathReader(HTMLParser):
    """The first ``<math>`` element of the HTML as a tree of _Element (text children are str)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root, self.stack = None, []

    def handle_starttag(self, tag, attrs):
        if self.root is None and tag != "math":
            return
        element = _Element(tag, attrs)
        if self.root is None:
            self.root = element
        elif self.stack:
            self.stack[-1].children.append(element)
        else:
            return  # a second formula: ignored
        self.stack.append(element)

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack:
            self.stack[-1].children.append(data)


def _group(text: str) -> str:
    """Parentheses around a part with a space outside brackets, so ``a/(b + c)`` keeps its meaning (``x_i``,
    ``√(σ² + ε)`` and ``(x − μ)`` are one piece already)."""
    text = text.strip()
    depth = 0
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if ch == " " and depth == 0:
            return f"({text})"
    return text


def _script(base: str, script: str, mark: str, table) -> str:
    script = script.strip()
    tight = script.replace(" ", "")
    small = tight.translate(table)
    if all(ch != orig for ch, orig in zip(small, tight)):
        return base + small  # every character has a Unicode super/subscript: x², x₁, W⁻¹
    if len(script) > 1 and not (script[0] == "(" and script[-1] == ")"):
        script = f"({script})"  # x_(tk), e^(z_i): where the script ends stays clear
    return f"{base}{mark}{script}"


def _join(parts: list[str]) -> str:
    """Siblings side by side, with a space before a big operator (``1/d ∑_i``)."""
    out = ""
    for part in parts:
        if out and not out.endswith(" ") and part[:1] in BIG_OPERATORS:
            out += " "
        out += part
    return out


def _after(base: str) -> str:
    """A space after a big operator's limits, so ``∑_k X_tk`` does not run together."""
    return " " if base.strip() in BIG_OPERATORS else ""


def _text(node) -> str:
    if isinstance(node, str):
        return node
    parts = [_text(child) for child in node.children if not isinstance(child, str) or node.tag in TOKENS]
    tag = node.tag
    if tag == "annotation":
        return ""
    if tag in TOKENS:
        word = "".join(parts).strip()
        if tag == "mo" and word in SPACED:
            return f" {word} " if word != "\u2061" else ""
        return word + " " if tag == "mo" and word in {",", ";"} else word
    if tag == "mspace":
        return " "
    if tag == "mfrac" and len(parts) == 2:
        return f"{_group(parts[0])}/{_group(parts[1])}"
    if tag == "msqrt":
        return "√" + _group(_join(parts))
    if tag == "mroot" and len(parts) == 2:
        return f"root {parts[1].strip()} of {_group(parts[0])}"
    if tag in ("msup", "mover") and len(parts) == 2:
        if tag == "mover" and parts[1].strip() in ACCENTS:
            return parts[0].strip() + ACCENTS[parts[1].strip()]
        return _script(parts[0], parts[1], "^", SUPERSCRIPTS)
    if tag in ("msub", "munder") and len(parts) == 2:
        return _script(parts[0], parts[1], "_", SUBSCRIPTS) + _after(parts[0])
    if tag in ("msubsup", "munderover") and len(parts) == 3:
        return _script(_script(parts[0], parts[1], "_", SUBSCRIPTS), parts[2], "^", SUPERSCRIPTS) + _after(parts[0])
    if tag == "mtr":
        return ", ".join(p.strip() for p in parts)
    if tag == "mtable":
        return "; ".join(p.strip() for p in parts)
    return _join(parts)


@functools.lru_cache(maxsize=4096)  # `mkdocs serve` rebuilds ask again for every formula of every page
def mathml_text(katex_html: str) -> str:
    """The plain-text form of the formula whose KaTeX HTML (with its MathML) is given; "" when it has no MathML."""
    start, end = katex_html.find("<math"), katex_html.find("</math>")
    reader = _MathReader()
    reader.feed(katex_html[start:end + len("</math>")] if 0 <= start < end else "")  # not the visual HTML after it
    reader.close()
    if reader.root is None:
        return ""
    text = re.sub(r"\s+", " ", _text(reader.root)).strip()
    return re.sub(r"([(\[{]) | ([)\]}])", r"\1\2", text)
