"""One Node.js process running KaTeX for a whole build (and across ``mkdocs serve`` rebuilds), fed one formula at
a time; answers are cached, so a rebuild only renders formulas it has not seen."""
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from .plaintext import mathml_text

SCRIPT = Path(__file__).resolve().parent / "katex_render.mjs"

# pymdownx.arithmatex (generic mode) writes inline math as <span class="arithmatex">\(...\)</span> and display math
# as <div class="arithmatex">\[...\]</div>, the TeX HTML-escaped and never containing a tag (the cross-linker's
# equations add attributes after the class). `index_math` turns one into <span class="arithmatex" data-tex="TeX">its
# plain text</span> (MARKED) for the search index to read; `render_math` turns either form into KaTeX's HTML.
_ATTRS = r'((?: (?!data-tex=)[\w-]+="[^"]*")*)'
MATH = re.compile(r'<(span|div) class="arithmatex"' + _ATTRS + r'>\\[(\[](.*?)\\[)\]]</\1>', re.S)
MARKED = re.compile(r'<(span|div) class="arithmatex"' + _ATTRS + r' data-tex="([^"]*)">[^<]*</\1>')


class KatexError(Exception):
    """A formula KaTeX cannot render, or no Node.js to render it with."""


class KatexRenderer:
    def __init__(self, script=SCRIPT):
        self._script = script
        self._process = None
        self._cache = {}  # (tex, display) -> html

    def render(self, tex, display):
        key = (tex, display)
        if key not in self._cache:
            answer = self._ask({"tex": tex, "display": display})
            if "error" in answer:
                raise KatexError(answer["error"])
            self._cache[key] = answer["html"]
        return self._cache[key]

    def _ask(self, request):
        if self._process is None or self._process.poll() is not None:
            node = shutil.which("node")
            if not node:
                raise KatexError("rendering the math needs Node.js (`node` on PATH), which `npm ci` also needs")
            self._process = subprocess.Popen([node, str(self._script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            problem = self.close().strip().splitlines()
            raise KatexError(f"the KaTeX process stopped: {problem[-1] if problem else 'no message'}")
        return json.loads(line)

    def close(self):
        """Stop the process (closing all three pipes); returns what it wrote to stderr."""
        if self._process is None:
            return ""
        _, errors = self._process.communicate(timeout=30)
        self._process = None
        return errors


def _render(renderer, tex, tag):
    try:
        return renderer.render(tex, display=tag == "div")
    except KatexError as error:
        raise KatexError(f"cannot render {tex!r}: {error}") from None


def index_math(page_html, renderer):
    """``page_html`` with each formula's TeX moved into ``data-tex`` and its plain text (``x = (1, 2, 3, 4)``) put
    in its place: run before mkdocs-material's search indexes the page, so excerpts show no raw TeX."""
    def mark(match):
        tag, attrs, tex = match.group(1), match.group(2), html.unescape(match.group(3))
        text = mathml_text(_render(renderer, tex, tag))
        return f'<{tag} class="arithmatex"{attrs} data-tex="{html.escape(tex)}">{html.escape(text, quote=False)}</{tag}>'

    return MATH.sub(mark, page_html)


def render_math(page_html, renderer):
    """``page_html`` with every arithmatex element (as pymdownx wrote it or as `index_math` marked it) replaced by
    KaTeX's HTML; KatexError names the formula."""
    def replace(match):
        tag, attrs, tex = match.group(1), match.group(2), html.unescape(match.group(3))
        return f'<{tag} class="arithmatex"{attrs}>{_render(renderer, tex, tag)}</{tag}>'

    return MATH.sub(replace, MARKED.sub(replace, page_html))
