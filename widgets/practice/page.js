/* Practice on one page (run by loader.js on every page that needs it, also after instant navigation): exercises,
 * knowledge-check answer boxes, the progress line, the list of every exercise. Test hook: Layerwise.practice. */
import { memoryToSpare } from "../engine-client.js";
import { Exercise } from "./exercise.js";
import { practiceEngine, warmUp } from "./engine.js";
import { startOnIntent } from "./intent.js";
import { initKnowledgeChecks } from "./knowledge.js";
import { fillListing } from "./listing.js";
import { showProgress } from "./progress.js";

let exercises = [];

export function initPage() {
  // document$ also replays the page already set up; instant navigation brings a new article (the body stays, so a
  // mark there would outlive its page: back on a page whose content came again, nothing would be set up)
  const article = document.querySelector("article") || document.body;
  if (article.dataset.lwPractice) return;
  article.dataset.lwPractice = "set up";
  document.body.dataset.lwPractice = location.pathname; // the page set up last (the tests wait for it)
  const found = [...document.querySelectorAll(".lw-exercise")];
  const ids = found.map((el) => el.dataset.exercise);
  let countAnswers = () => ({ answered: 0, total: 0 });
  const update = () => showProgress(ids, countAnswers());
  countAnswers = initKnowledgeChecks(update);
  exercises = found.map((el) => {
    el.dataset.lwReady = "true";
    return new Exercise(el, update);
  });
  mountWhenNeeded(exercises);
  startOnIntent();
  if (exercises.length && deviceToSpare()) {
    afterTheWidgetsEngine(() => widgetsEngineFailed() || whenIdle(warmUp));
  }
  for (const listing of document.querySelectorAll(".lw-practice-index")) fillListing(listing);
  update();
  const capstone = document.querySelector(".lw-capstone"); // "Build your GPT": its module only on its page
  if (capstone) import("./capstone.js").then((module) => module.initCapstone(capstone));
}

/* Each editor is made when it is needed, so a page load evaluates no CodeMirror (~1 s of a phone's main thread):
 * at once when the learner clicks, focuses or types in the static starter code (then the editor takes the focus),
 * or in idle time once the exercise comes within a screen of the view, which also starts the practice worker (if
 * deviceToSpare has not already). The observer is made here, after document$ has delivered the new page
 * (instant navigation), and an exercise already on screen is reported by its first observation. */
let observer = null;
function mountWhenNeeded(list) {
  if (observer) observer.disconnect();
  const byElement = new Map(list.map((exercise) => [exercise.el, exercise]));
  observer = new IntersectionObserver((entries, self) => {
    for (const entry of entries.filter((e) => e.isIntersecting)) {
      self.unobserve(entry.target);
      const exercise = byElement.get(entry.target);
      whenIdle(() => mount(exercise, exercise.el.querySelector(".lw-exercise__code"), false));
      // In view the reader came for it (the Practice page's link, a jump): the worker starts now, beside the widgets'
      // engine. A screen away it waits for that engine, which the reader is still using.
      if (inView(entry)) warmUp();
      else afterTheWidgetsEngine(() => whenIdle(warmUp));
    }
  }, { rootMargin: "100% 0px" });
  for (const exercise of list) {
    const code = exercise.el.querySelector(".lw-exercise__code");
    code.tabIndex = 0; // a tab stop until the editor, inside it, is one
    code.setAttribute("role", "group");
    code.setAttribute("aria-label", `Starter code of the exercise ${exercise.title}: press a key to edit it`);
    const now = () => mount(exercise, code, true);
    for (const type of ["pointerdown", "focusin", "keydown"]) code.addEventListener(type, now, { once: true });
    observer.observe(exercise.el);
  }
}

function inView(entry) {
  const { top, bottom } = entry.boundingClientRect;
  return top < window.innerHeight && bottom > 0;
}

function mount(exercise, code, focus) {
  exercise.mount().then(() => {
    const focused = code.contains(document.activeElement);
    for (const name of ["tabindex", "role", "aria-label"]) code.removeAttribute(name);
    if (focus && focused) exercise.editor.focus(); // the learner is still there: the keys go to the editor
  }).catch((error) => {
    exercise.el.classList.add("lw-exercise--static"); // its bar and notes as without JavaScript
    console.warn(`Layerwise practice: the editor could not load (${error.message}); the starter stays static`);
  });
}

/* An exercise a screen away starts the practice worker after the widgets' engine (worker.js) has loaded, whose start
 * it would slow down on a 2-core phone (on a page with widgets that engine is still idle until the page's first
 * paint). No widgets: at once. */
function afterTheWidgetsEngine(task) {
  const widgets = widgetsEngine();
  const settled = (state) => state === "ready" || state === "failed";
  if (!widgets || !document.querySelector(".lw-widget") || settled(widgets.state)) return task();
  document.addEventListener("layerwise:engine", function waiting(event) {
    if (!settled(event.detail.state)) return;
    document.removeEventListener("layerwise:engine", waiting);
    task();
  });
}

/* Where the device can spare it, the practice worker (~170 MB of the tab) starts once the widgets' engine is ready
 * and the page is idle, wherever the reader is, so a jump straight to an exercise (the table of contents, the
 * Practice page's list) finds it ready for the first Run; its start takes ~1 s (restored from the interpreter's memory
 * snapshot; ~2 s without it). That needs memory to spare (memoryToSpare: not under 4 GB) and a core to spare: 4 or
 * more, as phones of the last years have; on 2 its start slowed an edit typed meanwhile from ~12 to ~21 ms
 * (scripts/bench/HISTORY.md). Elsewhere it starts only when an exercise nears the screen (mountWhenNeeded), spent
 * only by a reader who gets there. */
const CORES_TO_SPARE_ONE = 4;
function deviceToSpare() {
  return memoryToSpare() && (navigator.hardwareConcurrency || 0) >= CORES_TO_SPARE_ONE;
}

/* The same runtime and NumPy would fail the practice worker too: it then starts only when the learner asks. */
function widgetsEngineFailed() {
  const widgets = widgetsEngine();
  return Boolean(widgets && widgets.state === "failed");
}

/* The widgets' engine client (widget-engine.js), when the widgets' modules have run in this tab. */
function widgetsEngine() {
  return window.Layerwise && window.Layerwise.engine;
}

const whenIdle = window.requestIdleCallback ? (task) => requestIdleCallback(task, { timeout: 2000 })
  : (task) => setTimeout(task, 0);

window.Layerwise = window.Layerwise || {};
window.Layerwise.practice = { engine: practiceEngine, exercises: () => exercises };
