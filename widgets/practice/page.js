/* Practice on one page (run by loader.js on every page that needs it, also after instant navigation): exercises,
 * knowledge-check answer boxes, the progress line, the list of every exercise. Test hook: Layerwise.practice. */
import { Exercise } from "./exercise.js";
import { practiceEngine } from "./engine.js";
import { initKnowledgeChecks } from "./knowledge.js";
import { fillListing } from "./listing.js";
import { showProgress } from "./progress.js";

let exercises = [];

export function initPage() {
  const found = [...document.querySelectorAll(".lw-exercise")];
  if (document.body.dataset.lwPractice === location.pathname && found.every((el) => el.dataset.lwReady)) return;
  document.body.dataset.lwPractice = location.pathname; // this document is set up (document$ also replays it)
  const ids = found.map((el) => el.dataset.exercise);
  let countAnswers = () => ({ answered: 0, total: 0 });
  const update = () => showProgress(ids, countAnswers());
  countAnswers = initKnowledgeChecks(update);
  exercises = found.map((el) => {
    el.dataset.lwReady = "true";
    return new Exercise(el, update);
  });
  for (const exercise of exercises) {
    exercise.mount().catch((error) => {
      console.warn(`Layerwise practice: the editor could not load (${error.message}); the starter stays static`);
    });
  }
  for (const listing of document.querySelectorAll(".lw-practice-index")) fillListing(listing);
  update();
  const capstone = document.querySelector(".lw-capstone"); // "Build your GPT": its module only on its page
  if (capstone) import("./capstone.js").then((module) => module.initCapstone(capstone));
}

window.Layerwise = window.Layerwise || {};
window.Layerwise.practice = { engine: practiceEngine, exercises: () => exercises };
