/* The header's palette toggle. overrides/partials/palette.html chooses the palette before the first paint and shows
   the toggle that leaves it; this switches it when the reader asks, as mkdocs-material's own toggle does, and keeps
   the browser's bar (Android's address bar) the colour of the header. */
(() => {
  const options = document.querySelector("[data-lw-palette]");
  if (!options) return;
  const { inputs, show } = window.Layerwise.palette;
  const bar = Object.assign(document.createElement("meta"), { name: "theme-color" });
  document.head.append(bar);

  function paintBar() {
    const rgb = getComputedStyle(document.querySelector(".md-header")).backgroundColor.match(/\d+/g).slice(0, 3);
    bar.content = "#" + rgb.map((channel) => Number(channel).toString(16).padStart(2, "0")).join("");
  }

  function choose(index) {
    document.body.setAttribute("data-md-color-switching", ""); // the theme's CSS: no transitions mid-switch
    const color = show(index);
    __md_set("__palette", { index, color }); // the shape the theme's script reads back on every page
    paintBar();
    requestAnimationFrame(() => document.body.removeAttribute("data-md-color-switching"));
  }

  // A toggle is a label for the next palette's radio button: clicking it checks that button.
  inputs.forEach((input, index) => input.addEventListener("change", () => choose(index)));
  // Enter on the focused button moves on to the next palette, as in the theme.
  options.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    const shown = inputs.findIndex((input) => !input.nextElementSibling.hidden);
    const next = inputs[(shown + 1) % inputs.length];
    next.click();
    next.focus();
  });
  // after load: the header's colour is then read without restyling anything
  if (document.readyState === "complete") paintBar();
  else addEventListener("load", paintBar, { once: true });
})();
