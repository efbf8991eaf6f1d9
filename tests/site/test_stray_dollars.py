"""A `$` that arithmatex did not take as math is found in the page's text; code and rendered math are left alone."""
from layerwise_build.mathrender.stray_dollars import stray_dollars


def test_a_dollar_in_prose_is_found_with_its_context():
    html = '<p>The angle is $\\theta = $ the position times a frequency.</p>'
    assert stray_dollars(html) == ["The angle is $\\theta = $ the position times"]  # 30 characters either side


def test_code_math_and_literal_entities_in_code_are_not_stray():
    html = ('<p>Inline <span class="arithmatex">\\(x\\)</span> and <code>echo $HOME</code>.</p>'
            '<pre><code>price = "$5"</code></pre><script>var a = "$";</script><p>Line<br>break</p>')
    assert stray_dollars(html) == []


def test_every_stray_dollar_is_reported_in_order():
    assert stray_dollars("<p>$a</p><ul><li>b $</li></ul>") == ["$a", "b $"]
