"""A `$` left in a page's text: math that pymdownx.arithmatex did not take (`$\\theta = $`, a space before the
closing `$`, is not math to it) and that would show as raw TeX. Found in the page's HTML, outside code and math."""
from html.parser import HTMLParser

_VERBATIM = {"code", "pre", "script", "style", "kbd", "samp"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _TextOutsideMath(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # True for an element whose text is code or math
        self.snippets = []

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append(tag in _VERBATIM or "arithmatex" in classes or "katex" in classes)

    def handle_endtag(self, tag):
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if "$" in data and not any(self.stack):
            at = data.index("$")
            self.snippets.append(" ".join(data[max(0, at - 30):at + 30].split()))


def stray_dollars(page_html):
    """The text around each `$` outside code and rendered math, in page order."""
    parser = _TextOutsideMath()
    parser.feed(page_html)
    parser.close()
    return parser.snippets
