"""The build-time math renderer (layerwise_build/mathrender): arithmatex's TeX in, KaTeX's HTML out, bad TeX named."""
import pytest

from layerwise_build.mathrender import KatexError, KatexRenderer, index_math, render_math
from layerwise_build.mathrender.plaintext import mathml_text


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


def test_index_math_leaves_plain_text_for_the_search_index_and_the_tex_for_rendering(renderer):
    page = ('<p>Take <span class="arithmatex">\\(x = (1, 2, 3, 4)\\)</span>.</p>'
            '<div class="arithmatex" tabindex="0" role="group" aria-label="Equation: LN">'
            '\\[\\hat{x}_i = \\frac{x_i - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}}\\]</div>')
    marked = index_math(page, renderer)
    assert marked == ('<p>Take <span class="arithmatex" data-tex="x = (1, 2, 3, 4)">x = (1, 2, 3, 4)</span>.</p>'
                      '<div class="arithmatex" tabindex="0" role="group" aria-label="Equation: LN" '
                      'data-tex="\\hat{x}_i = \\frac{x_i - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}}">'
                      'x̂_i = (x_i − μ)/√(σ² + ϵ)</div>')
    # rendering the marked page gives what rendering the original gives, attributes kept
    assert render_math(marked, renderer) == render_math(page, renderer)
    assert render_math(marked, renderer).count('tabindex="0" role="group" aria-label="Equation: LN">') == 1


def test_index_math_escapes_the_tex_and_its_text(renderer):
    marked = index_math('<span class="arithmatex">\\(a &lt; b\\)</span>', renderer)
    assert marked == '<span class="arithmatex" data-tex="a &lt; b">a &lt; b</span>'
    assert "<mo>&lt;</mo>" in render_math(marked, renderer)


@pytest.mark.parametrize("tex, text", [
    ("\\sigma^2 = \\frac{1}{d}\\sum_{i=1}^{d} (x_i-\\mu)^2", "σ² = 1/d ∑_(i = 1)^d (x_i − μ)²"),
    ("\\text{softmax}(z)_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}", "softmax(z)_i = e^(z_i)/(∑_j e^(z_j))"),
    ("Y_{tj} = \\sum_{k} X_{tk} W_{kj} + b_j", "Y_(tj) = ∑_k X_(tk)W_(kj) + b_j"),
    ("W^{-1} x_{10}", "W⁻¹x₁₀"),
    ("\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "(1, 2; 3, 4)"),
    ("\\operatorname{LayerNorm}(x) = \\gamma \\odot \\hat x + \\beta", "LayerNorm(x) = γ ⊙ x̂ + β"),
])
def test_plain_text_form_of_a_formula(renderer, tex, text):
    assert mathml_text(renderer.render(tex, display=False)) == text


def test_index_math_names_bad_tex(renderer):
    with pytest.raises(KatexError, match=r"cannot render '\\\\frac\{1\}\{': KaTeX parse error"):
        index_math('<span class="arithmatex">\\(\\frac{1}{\\)</span>', renderer)
