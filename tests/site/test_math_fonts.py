"""Which KaTeX fonts a page asks for before its first paint (mathrender/fonts.py), read from katex.min.css: checked
here against what KaTeX's own documentation and stylesheet say each command is set in. The browser side (the
fonts Chromium actually loads are the ones the head asked for) is tests/browser/test_font_preloads.py."""
from pathlib import Path

import pytest

from layerwise_build.mathrender.fonts import KatexFonts, with_font_preloads

CSS = Path(__file__).resolve().parents[2] / "node_modules" / "katex" / "dist" / "katex.min.css"


@pytest.fixture(scope="module")
def fonts():
    if not CSS.is_file():
        pytest.fail(f"{CSS} is missing: run `npm ci` (bash scripts/dev.sh test does it)")
    return KatexFonts.from_file(CSS)


def math(*spans):
    return '<span class="katex"><span class="katex-html">' + "".join(
        f'<span class="{classes}">x</span>' for classes in spans) + "</span></span>"


def test_plain_text_math_needs_only_main_regular(fonts):
    assert fonts.used_by(math("mord")) == ["fonts/KaTeX_Main-Regular.woff2"]


@pytest.mark.parametrize("classes, font", [
    ("mord mathnormal", "KaTeX_Math-Italic"),  # a variable: x
    ("mop op-symbol small-op", "KaTeX_Size1-Regular"),  # an inline \sum
    ("mop op-symbol large-op", "KaTeX_Size2-Regular"),  # a display \sum
    ("mord mathbf", "KaTeX_Main-Bold"),  # \mathbf{W}
    ("mord mathcal", "KaTeX_Caligraphic-Regular"),  # \mathcal{L}
    ("mord mathbb", "KaTeX_AMS-Regular"),  # \mathbb{R}
    ("mopen delimsizing size3", "KaTeX_Size3-Regular"),  # \Bigg(
    ("mord boldsymbol", "KaTeX_Math-BoldItalic"),  # \boldsymbol{x}
])
def test_a_command_set_in_another_font_asks_for_it(fonts, classes, font):
    assert fonts.used_by(math("mord", classes)) == sorted({"fonts/KaTeX_Main-Regular.woff2",
                                                           f"fonts/{font}.woff2"}, key=lambda f: "Main-Reg" not in f)


def test_a_class_alone_is_not_enough_when_the_rule_needs_two(fonts):
    # `.op-symbol.small-op` selects Size1; an element with only one of the two classes does not
    assert fonts.used_by(math("small-op")) == ["fonts/KaTeX_Main-Regular.woff2"]


def test_a_page_without_math_asks_for_no_font(fonts):
    assert fonts.used_by('<p><span class="mord">not math</span></p>') == []


def test_the_preloads_go_before_the_first_stylesheet():
    page = '<head><meta charset="utf-8"><link rel="stylesheet" href="a.css"></head>'
    out = with_font_preloads(page, [("fonts/KaTeX_Size1-Regular.woff2", "normal 400 1em KaTeX_Size1")],
                             "../assets/vendor/katex")
    assert out == ('<head><meta charset="utf-8"><link rel="preload" href="../assets/vendor/katex/fonts/'
                   'KaTeX_Size1-Regular.woff2" as="font" type="font/woff2" crossorigin '
                   'data-font="normal 400 1em KaTeX_Size1">'
                   '<link rel="stylesheet" href="a.css"></head>')
    assert with_font_preloads(page, [], "x") == page


def test_each_file_is_named_by_the_font_that_selects_it(fonts):
    # katex.min.css: @font-face{font-family:KaTeX_Math;font-style:italic;font-weight:400;src:url(fonts/KaTeX_Math-Italic...
    assert fonts.font_of("fonts/KaTeX_Math-Italic.woff2") == "italic 400 1em KaTeX_Math"
    assert fonts.font_of("fonts/KaTeX_Main-Bold.woff2") == "normal 700 1em KaTeX_Main"
    assert fonts.font_of("fonts/KaTeX_Size1-Regular.woff2") == "normal 400 1em KaTeX_Size1"
