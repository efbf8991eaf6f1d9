/* Layerwise practice, loaded on every page (a few hundred bytes): imports the practice modules only on a page that
 * has exercises, knowledge-check questions, the list of exercises or "Build your GPT", so other pages never download the editor.
 * Runs again on every mkdocs-material instant navigation (document$); the modules stay loaded across pages. */
(function () {
  "use strict";
  const pageModule = new URL("page.js", document.currentScript.src).href;
  const WANTED = ".lw-exercise, .lw-practice-index, article details.question, .lw-capstone";

  function initPage() {
    if (!document.querySelector(WANTED)) return;
    import(pageModule).then((page) => page.initPage()).catch((error) => {
      for (const el of document.querySelectorAll(".lw-exercise")) el.classList.add("lw-exercise--static");
      console.warn(`Layerwise practice could not start: ${error.message}`); // the static page stays as built
    });
  }

  initPage();
  if (window.document$) window.document$.subscribe(initPage);
})();
