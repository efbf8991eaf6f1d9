/* A move within the page (a heading in the table of contents, a link to an equation or to a common mistake, Back and
   Forward between them) is the browser's own, and lands where the page then stays.
   - mkdocs-material's instant navigation took the first such move for a new page and fetched the page again
     (overrides/main.html keeps the history's moves from it; a link that names where it opens is left alone by it).
   - A block of the article never on screen yet is laid out at an estimated height (layerwise.css). The browser jumps
     on the estimates, draws that frame, and only then renders the blocks in view at their true heights: what follows
     the target moved down the screen (LayerNorm at 412 px: a layout shift of 0.07-0.11, the next heading thrown out
     of view). So before the jump the blocks around the target, a screen's worth each way, are rendered once; each
     keeps its true height from then on (contain-intrinsic-size: auto), and what the browser renders above the
     view after the jump is kept still by its scroll anchoring.
   tests/browser/test_in_page_links.py */
(() => {
  const BLOCK = ".md-content__inner > *";
  const RENDER = "lw-render-now"; // layerwise.css: content-visibility: visible

  // Shows `block` and lays it out now, at its true height (returned); `rendered` collects it for letGo.
  function renderNow(block, rendered) {
    block.classList.add(RENDER);
    window.Layerwise.shownByScript(block);
    rendered.push(block);
    return block.offsetHeight;
  }
  // A block's size is remembered once a frame has been rendered with it shown; after that it may skip again.
  function letGo(rendered) {
    requestAnimationFrame(() => requestAnimationFrame(() => rendered.forEach((each) => each.classList.remove(RENDER))));
  }

  // The target's block and a screen's worth of blocks on either side: what the view can hold once it is at the target
  // (the blocks just above it too, under the header or when the target is near the end of the page).
  function renderAround(target) {
    const rendered = [];
    const middle = target.closest(BLOCK);
    let height = 0;
    for (let block = middle; block && height < innerHeight; block = block.nextElementSibling) {
      height += renderNow(block, rendered);
    }
    height = 0;
    for (let block = middle && middle.previousElementSibling; block && height < innerHeight;
      block = block.previousElementSibling) height += renderNow(block, rendered);
    letGo(rendered);
  }

  const targetOf = window.Layerwise.fragmentTarget; // overrides/main.html

  // In the capture phase: before the link's own listeners, the theme's and the browser's jump.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href*='#']");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    if (link.target && link.target !== "_self") return;
    if (link.origin !== location.origin || link.pathname !== location.pathname || link.search !== location.search) return;
    if (link.hash.startsWith("#__codelineno")) return; // the theme marks the code line and keeps the view
    const target = targetOf(link.hash);
    if (!target) return;
    renderAround(target);
    link.target = "_self"; // the theme's instant navigation leaves such a link to the browser
    history.replaceState({ x: scrollX, y: scrollY }, ""); // Back returns here (the theme keeps places the same way)
  }, true);

  // Where the reader is on an entry with a target, as the target's distance from the top of the view: a place the
  // blocks drawn in idle time (measureWhenIdle, at their true heights) cannot move, unlike an offset from the top of
  // the page. Kept for each target as the view moves (a scroll event comes at most once a frame).
  const placeOf = new Map(); // location.hash -> the target's top in the view
  addEventListener("scroll", () => {
    const target = targetOf(location.hash);
    if (target) placeOf.set(location.hash, target.getBoundingClientRect().top);
  }, { passive: true });

  // Back or Forward within the page: on an entry with a target, to the place the reader had there (or to the target);
  // on the others, to the offset its state kept (the place a link was followed from; the theme keeps places the
  // same way). Unless the theme has turned it off (history.scrollRestoration, once the reader has moved between
  // pages), the browser restores the offset the entry had when the reader left it, right after this event, and the
  // blocks drawn since may have moved what was shown there: the move is made after it, before the next frame.
  window.Layerwise.movedWithinPage = (state) => {
    const target = targetOf(location.hash);
    const offset = state && Number.isFinite(state.y) ? state : null;
    if (!target && !offset) return; // the browser's own, as on any other page
    // Read now: the browser's own restore, which runs before the frame below, fires a scroll that overwrites it.
    const place = placeOf.get(location.hash);
    if (target) renderAround(target);
    requestAnimationFrame(() => {
      if (!target) scrollTo(offset.x || 0, offset.y);
      else if (place === undefined) target.scrollIntoView();
      else scrollBy(0, target.getBoundingClientRect().top - place);
    });
  };
  // Every other far move (the scrollbar, find in page, Tab to a far link, a script's scrollIntoView) lands on the
  // estimates too, and the page's length changes under the reader as blocks are first drawn. So once the page has
  // settled (loaded, and its engine ready or failed), the blocks never drawn are drawn in idle time, a slice at a time,
  // each keeping its true height from then on: the page reaches its true length, and such a move lands where it aims.
  const SLICE_MS = 8; // 32 ms on a phone four times slower: under a long task's 50
  // A block is drawn at ~0.02-0.035 ms an element here (a widget's block ~800 elements: 17 ms; the trained model's
  // attention map, 4,500: 150 ms, a long task even unthrottled); a block larger than this is left to be drawn when
  // the reader reaches it.
  const MAX_ELEMENTS = 1000;
  function measureWhenIdle(article) {
    const waiting = [...article.children].filter((block) => !window.Layerwise.everDrawn(block)
      && block.getElementsByTagName("*").length <= MAX_ELEMENTS);
    const slice = (deadline) => {
      if (!article.isConnected) return; // the theme swapped another page in
      const stop = performance.now() + Math.min(SLICE_MS, deadline.timeRemaining());
      const rendered = [];
      while (waiting.length && performance.now() < stop) {
        const block = waiting.shift();
        // Shown by other means (printed, or a script's style): drawn whole already, and the containment RENDER adds
        // would change a block that content-visibility no longer contains.
        if (getComputedStyle(block).contentVisibility !== "auto") continue;
        // Above the view, a block's new height moves the view (the browser's scroll anchoring keeps what is shown
        // still), and the theme takes that for the reader scrolling up: its "Back to top" button came up by itself.
        if (block.getBoundingClientRect().bottom <= 0) continue;
        renderNow(block, rendered); // laid out here, in idle time, not in the next frame
      }
      letGo(rendered);
      if (waiting.length) requestIdleCallback(slice);
      else window.Layerwise.measuredPage = location.pathname; // for the tests
    };
    requestIdleCallback(slice);
  }
  const SETTLED = new Set(["ready", "failed"]);
  function whenSettled(then) {
    const engine = window.Layerwise.engine;
    if (!document.querySelector(".lw-widget") || (engine && SETTLED.has(engine.state))) {
      then();
      return;
    }
    const listener = (event) => {
      if (!SETTLED.has(event.detail.state)) return;
      document.removeEventListener("layerwise:engine", listener);
      then();
    };
    document.addEventListener("layerwise:engine", listener);
  }
  if (window.requestIdleCallback && window.document$) {
    window.document$.subscribe(() => {
      const article = document.querySelector(".md-content__inner");
      const start = () => whenSettled(() => measureWhenIdle(article));
      if (document.readyState === "complete") start();
      else addEventListener("load", start, { once: true });
    });
  }

  // The page shown changes when the theme has been told to go to another (it then changes the address, fetches the
  // page and swaps it in).
  if (window.location$) window.location$.subscribe((url) => { window.Layerwise.shownPath = url.pathname; });
})();
