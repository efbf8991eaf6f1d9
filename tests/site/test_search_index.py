"""The built search index (mkdocs-material's search/search_index.json): excerpts give formulas as text, never as
TeX, and a search lands on the section it names. Ranking is checked with the theme's own search code, run in Node
by search_probe.mjs on the built index, so it is the order a reader sees."""
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

PROBE = Path(__file__).resolve().parent / "search_probe.mjs"
TEX = re.compile(r"\\[()\[\]]|\\[A-Za-z]+")  # a math delimiter \( \[ or a command such as \frac


def _entries(site):
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def _entry(site, location):
    return next(e for e in _entries(site) if e["location"] == location)


def test_no_excerpt_or_title_shows_raw_tex(built_site):
    entries = _entries(built_site)
    assert len(entries) > 150  # the whole site was indexed
    with_tex = [f"{e['location']}: {TEX.search(e['title'] + e['text']).group()!r}" for e in entries
                if TEX.search(e["title"] + e["text"])]
    assert with_tex == [], f"{len(with_tex)} of {len(entries)} entries show TeX:\n" + "\n".join(with_tex[:20])


def test_formulas_are_indexed_as_their_plain_text(built_site):
    # docs/layers/layernorm.md: "Take $x = (1, 2, 3, 4)$ with $\gamma = (2, 2, 2, 2)$ and $\beta = (1, 1, 1, 1)$"
    example = _entry(built_site, "layers/layernorm/#a-tiny-example-forward-and-backward")
    assert "Take x = (1, 2, 3, 4) with γ = (2, 2, 2, 2) and β = (1, 1, 1, 1)." in example["text"]
    # a display equation: its title, then its formula (d\beta = \sum_{\text{rows}} dy), without the badge and links
    backward = _entry(built_site, "layers/layernorm/#backward")
    assert "Gradient on the bias dβ = ∑_(rows) dy" in backward["text"]
    assert "derived from the implementation" not in backward["text"]


def test_layernorm_backward_leads_to_the_layernorm_backward_section_first(built_site):
    node = shutil.which("node")
    assert node, "Node.js is needed (the build renders math with it too)"
    result = subprocess.run([node, str(PROBE), str(built_site), "layernorm backward"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    groups = json.loads(result.stdout)
    pages = [next(i["location"] for i in group if "#" not in i["location"]) for group in groups]
    assert pages[0] == "layers/layernorm/", pages[:5]
    sections = [i for i in groups[0] if "#" in i["location"]]  # in the order the results list shows them
    assert sections[0]["location"] == "layers/layernorm/#backward", sections[:3]


class _NavLinks(HTMLParser):
    """The text of every navigation link of a page (the site's nav and the page's table of contents)."""

    def __init__(self):
        super().__init__()
        self.depth, self.texts = 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "a" and "md-nav__link" in (dict(attrs).get("class") or ""):
            self.depth = 1
            self.texts.append("")
        elif self.depth and tag == "a":
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth and tag == "a":
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.texts[-1] += data


def test_no_navigation_or_table_of_contents_entry_shows_raw_tex(built_site):
    """A heading's math reaches the table of contents as its TeX source (the toc extension keeps the text the math
    was written in), so headings spell symbols out: "Where ε shows", not "Where $\\epsilon$ shows"."""
    shown = []
    for html in sorted(built_site.rglob("index.html")):
        links = _NavLinks()
        links.feed(html.read_text(encoding="utf-8"))
        assert links.texts, f"{html}: no navigation links found"
        shown += [f"{html.parent.relative_to(built_site)}: {text.strip()!r}" for text in links.texts if TEX.search(text)]
    assert shown == [], "\n".join(shown[:20])
