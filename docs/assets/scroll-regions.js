/* Keyboard access to blocks that scroll sideways (WCAG 2.1.1): a display equation, code listing, shapes table or
   code-and-math table wider than its column keeps a tab stop, so the arrow keys can scroll it, and is marked
   data-scrolls, so its edge shows that more follows; one that fits loses both, so it costs no Tab press. The build writes tabindex="0", a role and a name on Layerwise's own blocks (they
   work without JavaScript); mkdocs-material's table wrappers, made by its own script, get the same here. */
(() => {
  // The theme gives a code block (pre > code) that scrolls a tab stop itself, but only once the block comes on screen
  // (content.lazy in mkdocs.yml): until then the tab stop is ours, as for the boxes above.
  const BOXES = ".md-typeset div.arithmatex, .lw-code, .lw-shapes, .lw-codemath__scroll, .md-typeset__scrollwrap, " +
    ".md-typeset pre > code";

  // What a box needs, read without changing anything: "keep" (it has the focus: it keeps its tab stop until the
  // focus leaves it), "unmeasured", or whether it scrolls.
  function measure(box) {
    if (box === document.activeElement) return "keep";
    // Shown but not rendered yet (a block far off screen skips layout, layerwise.css): measured once it is, and a tab
    // stop until then (the build gives one to its own boxes), so Tab never passes over a box that might scroll. A
    // hidden box (a closed <details>) measures as fitting, and again when it is opened.
    if (window.Layerwise.notDrawn(box)) return "unmeasured"; // overrides/main.html: asked without drawing anything
    return box.scrollWidth > box.clientWidth + 1;
  }

  function apply(box, found) {
    if (box.classList.contains("md-typeset__scrollwrap") && !box.hasAttribute("role")) {
      const caption = box.querySelector("caption");
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", caption ? `Table: ${caption.textContent.trim()}` : "Table");
    }
    if (found === "keep") return;
    if (found === "unmeasured") {
      if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      return;
    }
    box.toggleAttribute("data-scrolls", found); // its edge shades (layerwise.css), as a wide matrix's does
    if (found) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  }

  // Every box is measured before any is changed: a change between two measurements makes the browser lay the whole
  // page out again for the second, once per box (about twenty on a layer page).
  function update(boxes) {
    const found = boxes.map(measure);
    boxes.forEach((box, i) => apply(box, found[i]));
  }

  // A block of the article that was skipped while off screen has just been rendered: measure the boxes in it.
  document.addEventListener("contentvisibilityautostatechange", (event) => {
    if (event.skipped) return;
    const boxes = [...event.target.querySelectorAll(BOXES)];
    update(event.target.matches(BOXES) ? [event.target, ...boxes] : boxes);
  }, true);
  document.addEventListener("focusout", (event) => {
    if (event.target.matches && event.target.matches(BOXES)) setTimeout(() => update([event.target]), 0);
  }, true);

  // Each box is measured by the observer's first report (for every box being rendered), then again whenever it
  // changes size: shown from a closed details or another tab, its fonts arrived, the window resized. A box not
  // rendered yet keeps the build's tab stop until its block is (the event above). So each box is measured once at
  // load (a loop measuring them all, then the observer's first report, then a second scan on font load measured
  // each box three or four times).
  const resized = new ResizeObserver((entries) => update(entries.map((entry) => entry.target)));

  function scan() {
    resized.disconnect();
    const boxes = [...document.querySelectorAll(BOXES)];
    // The observer reports nothing of a box inside a block not drawn yet, and the theme's table wrappers have no
    // tab stop from the build: every box gets one now, unasked, until the observer's first report (a box that is
    // drawn) or its block's rendering (the event above) has it measured.
    boxes.forEach((box) => apply(box, "unmeasured"));
    for (const box of boxes) resized.observe(box);
  }

  // after mkdocs-material has laid out each page of instant navigation (it wraps tables on the same event)
  const later = () => requestAnimationFrame(scan);
  if (window.document$) window.document$.subscribe(later);
  else document.addEventListener("DOMContentLoaded", later);
})();
