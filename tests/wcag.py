"""WCAG 2.1's colour contrast, written out from the standard for the tests that check colours the page paints (the
formula is checked against WCAG's own end points in tests/browser/test_accessibility.py)."""


def relative_luminance(rgb):
    """WCAG 2.1's relative luminance of an sRGB colour (0-255 channels)."""
    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(text, background):
    """Contrast ratio of a text colour (r, g, b, alpha: blended over the background) against an opaque background."""
    *fg, alpha = text
    shown = [alpha * f + (1 - alpha) * b for f, b in zip(fg, background[:3])]
    lighter, darker = sorted((relative_luminance(shown), relative_luminance(background[:3])), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
