"""Every layer page has the parts the home page promises, in the promised order, and the learning path holds.

The order (ARCHITECTURE.md, "Layer page anatomy"): Before you start (objectives, prerequisites), What it is, Why
the model needs it, Mathematics, A tiny example, Tensor shapes, Implementation, Code and math, Checking the backward
numerically, From gradient to update, Common mistakes, Knowledge check, Practice (optional), Takeaways, Next,
References. The home page's numbered list names the same parts in the same order (its learning path is made from
the nav by the build: tests/site/test_page_order.py).
"""
import re
from pathlib import Path

import pytest

from crosslink_harness import REPO, nav_pages

DOCS = REPO / "docs"
PARTS = ["Before you start", "What it is", "Why the model needs it", "Mathematics", "A tiny example",
         "Tensor shapes at the real call sites", "Implementation", "Code and math",
         "Checking the backward numerically", "From gradient to update", "Common mistakes", "Knowledge check",
         "Practice", "Takeaways", "Next", "References"]
OPTIONAL = {"Practice"}
# Initialisation has no backward pass of its own: the home page says so next to the list.
WITHOUT = {"layers/initialisation.md": {"Checking the backward numerically"}}
FENCE = re.compile(r"^[ \t]*(`{3,}).*?^[ \t]*\1[ \t]*$", re.M | re.S)
H2 = re.compile(r"^## (.+?)\s*$", re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)#\s]+)[^)]*\)")


LAYER_PAGES = [page for page in nav_pages() if page.startswith("layers/")]


def sections(page: str) -> dict[str, str]:
    """`heading -> body` of the level-2 sections of `docs/<page>`, in order (fenced blocks left out)."""
    text = FENCE.sub("", (DOCS / page).read_text())
    parts = H2.split(text)
    return dict(zip(parts[1::2], parts[2::2]))


def part_of(heading: str) -> str | None:
    """The anatomy part a heading is (`A tiny example` may go on: `, forward and backward`), or None."""
    return next((part for part in PARTS if heading == part or heading.startswith((part + ":", part + ","))), None)


def test_every_layer_page_is_in_the_nav():
    # a page under docs/layers/ left out of the nav would escape every anatomy test below
    on_disk = sorted(path.relative_to(DOCS).as_posix() for path in (DOCS / "layers").glob("*.md"))
    assert on_disk == sorted(LAYER_PAGES), "rule (ARCHITECTURE, Adding a page): every page under docs/layers/ is in the nav"


@pytest.mark.parametrize("page", LAYER_PAGES)
def test_layer_page_has_every_part_in_order(page):
    headings = list(sections(page))
    assert [h for h in headings if part_of(h) is None] == [], (
        f"{page}: level-2 headings that are no part of the anatomy (rule: ARCHITECTURE, Layer page anatomy; "
        "anything else is a ### inside a part)")
    expected = [p for p in PARTS if p not in WITHOUT.get(page, set())
                and (p not in OPTIONAL or any(part_of(h) == p for h in headings))]
    assert [part_of(h) for h in headings] == expected, f"{page}: the parts must come in the anatomy's order"


GRADIENT_CHECK_SNIPPET = '--8<-- "gradient-check.md"'  # the method, its tolerance and the whole-model check, written once


@pytest.mark.parametrize("page", [p for p in nav_pages() if "Checking the backward numerically" in sections(p)])
def test_the_numerical_check_section_says_the_shared_part_from_one_place(page):
    body = sections(page)["Checking the backward numerically"]
    assert body.count(GRADIENT_CHECK_SNIPPET) == 1, (
        f"{page}: its Checking the backward numerically section includes docs/snippets/gradient-check.md once "
        "(ARCHITECTURE, Layer page anatomy); the page's own part says what its example checks and its test")
    assert "gradcheck.md" not in body.replace(GRADIENT_CHECK_SNIPPET, ""), (
        f"{page}: the link to Gradient checking comes from the snippet")


@pytest.mark.parametrize("page", LAYER_PAGES)
def test_objectives_prerequisites_and_takeaways(page):
    body = sections(page)
    start = body["Before you start"]
    objectives = start.split("After this page you can:")[1].split("You need:")[0]
    assert 2 <= len(re.findall(r"^- ", objectives, re.M)) <= 4, f"{page}: 2 to 4 objectives"
    assert "You need:" in start, f"{page}: prerequisites"
    assert 3 <= len(re.findall(r"^- ", body["Takeaways"], re.M)) <= 5, f"{page}: 3 to 5 takeaways"


@pytest.mark.parametrize("page", LAYER_PAGES)
def test_next_links_to_the_following_page_of_the_nav(page):
    order = nav_pages()
    following = order[order.index(page) + 1]
    first_link = LINK.search(sections(page)["Next"]).group(1)
    assert (Path(page).parent / first_link).as_posix().replace("layers/../", "") == following, (
        f"{page}: its Next section must link first to {following}, the page after it in the nav")


@pytest.mark.parametrize("page", LAYER_PAGES)
def test_prerequisites_come_earlier_in_the_nav(page):
    order = nav_pages()
    need = sections(page)["Before you start"].split("You need:")[1].split("\n\n")[0]
    for link in LINK.findall(need):
        target = (Path(page).parent / link).as_posix().replace("layers/../", "")
        assert order.index(target) < order.index(page), f"{page} needs {target}, which comes later"


def test_residual_stream_comes_before_the_pages_that_build_on_it():
    order = nav_pages()
    for page in ("layers/layernorm.md", "layers/rmsnorm.md", "layers/dropout.md", "layers/initialisation.md"):
        assert order.index("layers/residual.md") < order.index(page), f"{page} builds on the residual stream"


def test_home_lists_the_parts_in_the_same_order():
    anatomy = sections("index.md")["How to read a layer page"]
    promised = re.findall(r"^\d+\. \*\*(.+?)\*\*", anatomy, re.M)
    assert promised == PARTS
    assert "Initialisation" in anatomy and "no backward" in anatomy  # the one documented exception


EQUATION = re.compile(r'^[ \t]*```equation\b(?P<attrs>[^\n]*)$', re.M)
QUOTED_BACKWARDS = {"init-variance-backward"}  # Glorot and Bengio's variance argument, quoted rather than derived


def test_every_backward_formula_carries_the_derived_badge():
    unmarked = []
    for page in nav_pages():
        for m in EQUATION.finditer((DOCS / page).read_text()):
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group("attrs")))
            backward = re.search(r"(^|[._])backward$", attrs["code"]) or "_backward(" in attrs.get("select", "")
            if backward and attrs.get("derived") != "true" and attrs["id"] not in QUOTED_BACKWARDS:
                unmarked.append(f"{page}: {attrs['id']}")
    assert unmarked == []


MODEL_PAGES = [page for page in nav_pages() if page.startswith("model/")]


@pytest.mark.parametrize("page", MODEL_PAGES)
def test_model_pages_open_and_close_as_home_says(page):
    # Home: the pages under The whole model follow the model in between, but open with Before you start and close
    # with Takeaways, Next and References
    headings = list(sections(page))
    assert headings[0] == "Before you start" and headings[-3:] == ["Takeaways", "Next", "References"], page
    assert 3 <= len(re.findall(r"^- ", sections(page)["Takeaways"], re.M)) <= 5, f"{page}: 3 to 5 takeaways"


@pytest.mark.parametrize("page", MODEL_PAGES[:-1])
def test_model_pages_lead_on_to_the_next_one(page):
    order = nav_pages()
    first_link = LINK.search(sections(page)["Next"]).group(1)
    assert f"model/{first_link}" == order[order.index(page) + 1], f"{page}: its Next must lead on along the nav"


def test_home_counts_the_model_pages():
    assert f"The {['three', 'four', 'five', 'six', 'seven'][len(MODEL_PAGES) - 3]} pages under **The whole model**" \
        in (DOCS / "index.md").read_text()
