"""One Node.js process running KaTeX for a whole build (and across ``mkdocs serve`` rebuilds), fed one formula at
a time; answers are cached, so a rebuild only renders formulas it has not seen."""
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "katex_render.mjs"
# pymdownx.arithmatex (generic mode) writes inline math as <span class="arithmatex">\(...\)</span> and display math
# as <div class="arithmatex">\[...\]</div>, the TeX HTML-escaped and never containing a tag.
MATH = re.compile(r'<(span|div) class="arithmatex">\\[(\[](.*?)\\[)\]]</\1>', re.S)


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


def render_math(page_html, renderer):
    """``page_html`` with every arithmatex element's TeX replaced by KaTeX's HTML; KatexError names the formula."""
    def replace(match):
        tag, tex = match.group(1), html.unescape(match.group(2))
        try:
            rendered = renderer.render(tex, display=tag == "div")
        except KatexError as error:
            raise KatexError(f"cannot render {tex!r}: {error}") from None
        return f'<{tag} class="arithmatex">{rendered}</{tag}>'

    return MATH.sub(replace, page_html)
