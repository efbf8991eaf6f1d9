/* The KaTeX fonts the head preloads, asked for by name as soon as the page's scripts run. Blocks far down the page
   are laid out only when scrolled near (content-visibility, layerwise.css), so a font only they use sat unused and
   the console said its preload was wasted (6-8 warnings a page); asked for now, it is ready before they are drawn. */
document.querySelectorAll('link[rel="preload"][as="font"][data-font]').forEach(function (link) {
  document.fonts.load(link.dataset.font);
});
