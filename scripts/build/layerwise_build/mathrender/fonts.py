"""The KaTeX fonts a page's math uses, so its head can ask for them with the styles: a font fetched only when the
browser first lays its characters out arrives after they were painted in a fallback, and the lines re-wrap (a
layout shift; tests/browser/test_layout_shift.py caught an inline ∑, KaTeX_Size1, moving a paragraph on The model).

Which classes take which font is read from katex.min.css itself, not kept in a list here: each rule that sets a
KaTeX font names the classes it needs (``.katex .op-symbol.small-op`` needs both), and each ``@font-face`` the file of
a family, weight and style. The root ``.katex`` rule sets KaTeX_Main, so every page with math needs Main-Regular.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")
_FACE = re.compile(r"@font-face\{([^}]*)\}")
_FAMILY = re.compile(r"font-family:\"?(KaTeX_\w+)")
_WEIGHT = re.compile(r"font-weight:(\w+)")
_STYLE = re.compile(r"font-style:(\w+)")
_WOFF2 = re.compile(r"url\((fonts/[\w-]+\.woff2)\)")
_CLASS_ATTR = re.compile(r'<span class="([^"]+)"')
ROOT_FACE = ("KaTeX_Main", "400", "normal")  # `.katex { font: normal 1.21em KaTeX_Main, ... }`


def _weight(value):
    return {"normal": "400", "bold": "700"}.get(value, value)


@dataclass(frozen=True)
class KatexFonts:
    faces: dict[tuple[str, str, str], str]  # (family, weight, style) -> "fonts/KaTeX_Main-Regular.woff2"
    rules: list[tuple[frozenset[str], tuple[str, str, str]]]  # classes an element needs -> the face they select

    @classmethod
    def from_css(cls, css: str) -> "KatexFonts":
        faces = {}
        for body in _FACE.findall(css):
            family, url = _FAMILY.search(body), _WOFF2.search(body)
            weight, style = _WEIGHT.search(body), _STYLE.search(body)
            faces[(family.group(1), _weight(weight.group(1) if weight else "400"),
                   style.group(1) if style else "normal")] = url.group(1)
        rules = []
        for selectors, body in _RULE.findall(_FACE.sub("", css)):
            family = _FAMILY.search(body)
            if not family:
                continue
            weight, style = _WEIGHT.search(body), _STYLE.search(body)
            face = (family.group(1), _weight(weight.group(1) if weight else "400"),
                    style.group(1) if style else "normal")
            for selector in selectors.split(","):
                # the last compound with a class: `.delimsizing.mult .delim-size1>span` needs `delim-size1`
                compounds = [c for c in re.split(r"[\s>+~]+", selector.strip()) if "." in c]
                if compounds:
                    rules.append((frozenset(compounds[-1].split(".")[1:]), face))
        return cls(faces, rules)

    @classmethod
    def from_file(cls, path: Path) -> "KatexFonts":
        return cls.from_css(path.read_text(encoding="utf-8"))

    def used_by(self, page_html: str) -> list[str]:
        """The woff2 files (``fonts/...``) the page's KaTeX spans select, Main-Regular first; [] without math."""
        if 'class="katex' not in page_html:
            return []
        class_sets = {frozenset(value.split()) for value in _CLASS_ATTR.findall(page_html)}
        faces = {face for classes, face in self.rules if any(classes <= found for found in class_sets)}
        files = [self.faces[ROOT_FACE]] + sorted({self.faces[f] for f in faces if f in self.faces} - {self.faces[ROOT_FACE]})
        return files

    def font_of(self, file: str) -> str:
        """The CSS font that selects ``file``'s face, as ``document.fonts.load`` takes it: "italic 400 1em KaTeX_Math"."""
        family, weight, style = next(face for face, name in self.faces.items() if name == file)
        return f"{style} {weight} 1em {family}"


def with_font_preloads(page_html: str, fonts: list[tuple[str, str]], fonts_url: str) -> str:
    """``page_html`` asking, before its first stylesheet, for each ``(file, font)`` of ``fonts`` (the file as
    ``used_by`` names it, under ``fonts_url``, the folder holding katex.min.css relative to the page; the font as
    ``font_of`` writes it, for docs/assets/math-fonts.js)."""
    if not fonts:
        return page_html
    links = "".join(f'<link rel="preload" href="{fonts_url}/{name}" as="font" type="font/woff2" crossorigin '
                    f'data-font="{font}">' for name, font in fonts)
    head = page_html.index('<link rel="stylesheet"')  # fetched with the styles, not after them
    return page_html[:head] + links + page_html[head:]
