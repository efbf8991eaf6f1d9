"""Long pages render only the blocks near the screen (`content-visibility: auto`, layerwise.css), which implies paint
containment: a block paints nothing outside its box. What a block hangs outside it (a list's numbers in its indent,
an admonition's shadow) must still show: around each block the rule reaches, a margin is photographed as the page
shows it and again with the rule's paint containment alone lifted (the layout and style containment it also
implies stay, so nothing moves), and the two must be the same pixels. It once cut "10." to ".0."
on the home page's path (since then outside the rule: the first two sections are never skipped). No engine needed: it is kept from loading."""
import math

import pytest
from browser_pages import open_static

pytestmark = pytest.mark.browser

MARGIN = 24  # px photographed around each block: a list's numbers hang up to ~2em left of it, a shadow ~.7rem below
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 740}}
# Blocks of the article the rule reaches, with what can hang outside: lists, admonitions, collapsible blocks.
CONTAINED = """sel => [...document.querySelectorAll('.md-content__inner > *')]
    .filter(el => getComputedStyle(el).contentVisibility === 'auto' && el.matches(sel))
    .map((el, i) => { el.dataset.clipProbe = i; return i; })"""
OVERHANGS = "ol, ul, .admonition, details, :has(ol, ul)"
# While a block is photographed its neighbours are hidden (their layout stays): only what the block itself paints is
# in the strips, not a neighbour's rounded corner, whose anti-aliasing may differ by a level between two shots.
ALONE = ".lw-clip-alone .md-content__inner > :not(.lw-clip-probed) { visibility: hidden !important; }"
SOLO = """([i, on]) => { document.body.classList.toggle('lw-clip-alone', on);
    document.querySelector(`[data-clip-probe='${i}']`).classList.toggle('lw-clip-probed', on); }"""


# No page has a list long enough to reach "10." where the rule applies (the home page's is in its first two
# sections), so one is put there, after the third h2: the case that once lost its "1" is photographed on every run.
LONG_LIST = """() => { const list = document.createElement('ol');
    list.innerHTML = Array.from({length: 12}, (_, i) => `<li>step ${i + 1}</li>`).join('');
    document.querySelectorAll('.md-content__inner > h2')[2].after(list); }"""


TOP = 100  # px from the top of the screen, under the theme's header, where a block (or its next part) is put


def place(page, probe, offset):
    """Scroll so that ``offset`` px into the block are at TOP; returns its box and how far down the screen shows."""
    return page.evaluate("""async ([i, offset, top]) => {
        const el = document.querySelector(`[data-clip-probe="${i}"]`);
        const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        // blocks above get their real height once rendered, which moves this one: scroll until it stays put
        let was = NaN;
        while (el.getBoundingClientRect().top !== was) {
            window.scrollBy(0, el.getBoundingClientRect().top + offset - top);
            await frames();
            was = el.getBoundingClientRect().top;
            await frames();
        }
        const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, shown: innerHeight - 24};
    }""", [probe, offset, TOP])


def margins(page, probe):
    """The pixels of the strips around the block's box, part by part for a block taller than the screen: inside
    the box nothing is clipped (and text there may be rasterised a little differently once containment is lifted)."""
    width = page.viewport_size["width"]
    shots, offset = [], 0
    while True:
        box = place(page, probe, offset)
        # whole pixels, 1 px clear of the box: its own border's edge may fall a sub-pixel either way
        box.update(left=math.floor(box["left"]) - 1, right=math.ceil(box["right"]) + 1,
                   top=math.floor(box["top"]) - 1, bottom=math.ceil(box["bottom"]) + 1)
        left, right = max(0, box["left"] - MARGIN), min(width, box["right"] + MARGIN)
        top, bottom = max(box["top"], TOP), min(box["bottom"], box["shown"])
        strips = [{"x": left, "y": top, "width": box["left"] - left, "height": bottom - top},
                  {"x": box["right"], "y": top, "width": right - box["right"], "height": bottom - top}]
        if offset == 0:
            strips.append({"x": left, "y": box["top"] - MARGIN, "width": right - left, "height": MARGIN})
        if box["bottom"] <= box["shown"]:
            strips.append({"x": left, "y": box["bottom"], "width": right - left, "height": MARGIN})
        shots += [page.screenshot(clip=strip, animations="disabled", caret="hide")
                  for strip in strips if strip["width"] >= 1 and strip["height"] >= 1]
        if box["bottom"] <= box["shown"]:
            return shots
        offset += bottom - top


# The home page's path, where ".0." was seen, now sits in the first two sections, which the rule leaves out (they
# fill the first screen); these pages have numbered and bulleted lists, admonitions and details further down.
@pytest.mark.parametrize("path", ["layers/layernorm/"], ids=["layernorm"])
@pytest.mark.parametrize("viewport", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_containment_cuts_nothing_a_block_paints_outside_its_box(watched, site, path, viewport):
    page = watched.page
    open_static(watched, site, path, viewport)
    page.add_style_tag(content=".md-top { visibility: hidden !important; }")  # "Back to top" comes and goes on scroll
    page.evaluate(LONG_LIST)
    probes = page.evaluate(CONTAINED, OVERHANGS)
    assert probes, "no list or admonition the rule reaches: the test would prove nothing"
    page.add_style_tag(content=ALONE)
    cut = []
    for probe in probes:
        page.evaluate(SOLO, [probe, True])
        contained = margins(page, probe)
        page.evaluate("""i => Object.assign(document.querySelector(`[data-clip-probe='${i}']`).style,
                                            {contentVisibility: 'visible', contain: 'layout style'})""", probe)
        lifted = margins(page, probe)
        page.evaluate(SOLO, [probe, False])
        if lifted != contained:
            cut.append(page.evaluate("i => document.querySelector(`[data-clip-probe='${i}']`).outerHTML.slice(0, 120)",
                                     probe))
    assert cut == [], "paint containment cuts what these blocks paint outside their box"


def test_a_focus_ring_at_a_blocks_edge_is_not_cut(watched, site):
    page = watched.page
    open_static(watched, site, "layers/layernorm/", VIEWPORTS["desktop"])
    page.add_style_tag(content=".md-top { visibility: hidden !important; }")
    found = page.evaluate("""() => {
        const edge = a => { const block = a.closest('.md-content__inner > *');
            return getComputedStyle(block).contentVisibility === 'auto'
                && Math.abs(a.getBoundingClientRect().left - block.getBoundingClientRect().left) < 2 && block; };
        // each link asked once: its block may be drawn (and move) between two asks
        const [link, block] = [...document.querySelectorAll('.md-content__inner a[href]')]
            .map(a => [a, edge(a)]).find(([, found]) => found) || [];
        if (!link) return false;
        block.dataset.clipProbe = 0;
        link.focus();
        return getComputedStyle(link).outlineStyle !== 'none';
    }""")
    assert found, "no link with a focus ring at the left edge of a contained block: the test would prove nothing"
    contained = margins(page, 0)
    page.evaluate("""Object.assign(document.querySelector('[data-clip-probe="0"]').style,
                                   {contentVisibility: 'visible', contain: 'layout style'})""")
    assert margins(page, 0) == contained, "the focus ring is cut at the block's edge"
