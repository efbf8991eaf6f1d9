"""One source for the page order: mkdocs.yml's nav. Every order a reader sees in the built site follows it.

The home page's learning path and the Practice page's list are generated from the nav by the build
(layerwise_build/sitenav); these tests read the built HTML, so a list typed by hand again, or sorted otherwise, fails.
"""
import re
from html import unescape

import pytest
from layerwise_build import sitenav
from crosslink_harness import nav_pages

from engine import exercises

HREF = re.compile(r'<a href="([^"]+)"')


def page_of(href, base):
    """The docs path of a link in the built page at ``base`` (`../layers/linear/#x` from `practice/`)."""
    parts = [part for part in (base + href.split("#")[0]).split("/") if part]
    resolved = []
    for part in parts:
        resolved.pop() if part == ".." else resolved.append(part)
    return "/".join(resolved) + ".md"


def test_home_path_lists_every_section_page_in_nav_order(built_site):
    html = (built_site / "index.html").read_text()
    path = html.split('id="a-path-through-the-pages"', 1)[1].split("<ol>", 1)[1].split("</ol>", 1)[0]
    assert [page_of(href, "") for href in HREF.findall(path)] == nav_pages(sections_only=True)
    assert len(re.findall(r"<li>", path)) == len(nav_pages(sections_only=True))


def test_each_path_entry_shows_its_pages_description(built_site):
    html = (built_site / "index.html").read_text()
    path = html.split('id="a-path-through-the-pages"', 1)[1].split("</ol>", 1)[0]
    embedding = (built_site / "layers" / "embedding" / "index.html").read_text()
    description = unescape(re.search(r'<meta name="description" content="([^"]+)"', embedding).group(1))
    assert description in unescape(re.sub(r"<[^>]+>", "", path))


def test_practice_page_lists_every_exercise_in_nav_order(built_site):
    html = (built_site / "practice" / "index.html").read_text()
    listed = re.findall(r'<tr data-exercise="([^"]+)">.*?<a href="([^"]+)"', html, re.S)
    assert sorted(exercise_id for exercise_id, _ in listed) == sorted(exercises.ids())
    order = nav_pages()
    positions = [(order.index(page_of(href, "practice/")), exercises.get(exercise_id).ORDER)
                 for exercise_id, href in listed]
    assert positions == sorted(positions), "the Practice page lists exercises out of the nav's page order"


def test_a_path_page_without_a_description_is_named():
    nav = [{"Home": "index.md"}, {"Layers": [{"Linear": "layers/linear.md"}]}]
    with pytest.raises(sitenav.NavError, match=r"page 'layers/linear\.md' is on the learning path .* `description:`"):
        sitenav.learning_path(nav, {"layers/linear.md": "# Linear\n"})


def test_the_path_skips_top_level_pages_and_the_order_skips_the_source_index():
    # the nav as the build leaves it: "Source", the index of the source pages, appended last
    nav = [{"Home": "index.md"}, {"Layers": [{"Linear": "layers/linear.md"}]}, {"Source": "source/index.md"}]
    texts = {"layers/linear.md": "---\ndescription: A matrix product and a bias.\n---\n# Linear\n"}
    assert sitenav.learning_path(nav, texts) == "1. [Linear](layers/linear.md). A matrix product and a bias."
    assert sitenav.nav_pages(nav) == [("Home", "index.md"), ("Linear", "layers/linear.md")]
