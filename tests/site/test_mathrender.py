"""The build-time math renderer (scripts/mathrender): arithmatex's TeX in, KaTeX's HTML out, bad TeX named."""
import pytest

from mathrender import KatexError, KatexRenderer, render_math


@pytest.fixture(scope="module")
def renderer():
    katex = KatexRenderer()
    yield katex
    katex.close()


def test_inline_and_display_math_become_katex_html_and_the_rest_is_untouched(renderer):
    page = ('<p>Before <span class="arithmatex">\\(x^2\\)</span> after.</p>'
            '<div class="arithmatex">\\[y = \\frac{1}{2}\\]</div><p class="arithmatex-like">\\(kept\\)</p>')
    out = render_math(page, renderer)
    inline, display = out.split("<div", 1)
    assert inline.startswith('<p>Before <span class="arithmatex"><span class="katex">') and "katex-display" not in inline
    assert '<annotation encoding="application/x-tex">x^2</annotation>' in inline and inline.endswith(" after.</p>")
    assert 'class="katex-display"' in display and '<annotation encoding="application/x-tex">y = \\frac{1}{2}' in display
    assert out.endswith('<p class="arithmatex-like">\\(kept\\)</p>')


def test_html_escaped_tex_is_unescaped_once(renderer):
    out = render_math('<span class="arithmatex">\\(a &lt; b\\)</span>', renderer)
    assert '<annotation encoding="application/x-tex">a &lt; b</annotation>' in out  # not &amp;lt;
    assert "<mo>&lt;</mo>" in out


def test_bad_tex_names_the_formula_and_katex_reason(renderer):
    with pytest.raises(KatexError, match=r"cannot render '\\\\frac\{1\}\{': KaTeX parse error"):
        render_math('<div class="arithmatex">\\[\\frac{1}{\\]</div>', renderer)
    # the process survives a bad formula
    assert "katex" in render_math('<span class="arithmatex">\\(z\\)</span>', renderer)
