/* Entry of the live widgets (an ES module): finds the page's widgets, starts the engine on a page that has any, keeps the
 * page's one-line notice (the engine cannot load, or crashed and restarted) and its announcements of the engine's
 * state, adds the skip link to the first widget, and sets up again on every mkdocs-material instant navigation
 * (document$), which keeps the worker. Test hooks: window.Layerwise.engine, .widgets(), .cells. */
import * as cells from "./cells.js";
import { Widget } from "./widget.js";
import { announce, liveRegion } from "./widget-announce.js";
import { engine, onEngineChange, startEngineAfterFirstPaint, startEngineAfterPractice } from "./widget-engine.js";
import { setUpHelp } from "./widget-help.js";
import { pause } from "./widget-pause.js";
import { catchUpLink, scheduleLink } from "./widget-storage.js";

let pageWidgets = [];
let firstPage = true; // the document the browser loaded, before any instant navigation

/* The link holds every edited widget of the page. */
function editedValues() {
  const edited = {};
  for (const widget of pageWidgets) if (!widget.isAtStart()) edited[widget.id] = widget.values;
  return edited;
}

function saveLink() {
  scheduleLink(editedValues);
}

const CRASH_SHOWN = 48; // characters of the crash's reason shown, so that the notice stays one line
let crashSeen = 0; // engine.crashes when this page was set up: older crashes are not this page's news
let lostIn = null; // the widget whose answer the latest crash lost: the notice goes above it

/* One notice per page, in one line: the engine cannot load, or it stopped and was restarted. */
function noticeText() {
  if (engine.state === "failed") {
    return `The live engine could not load: ${engine.reason}. Every value on this page was computed by the same ` +
           "engine when the site was built, so it stays readable; edits are not recomputed.";
  }
  if (engine.crashes > crashSeen) {
    const why = engine.crash.length > CRASH_SHOWN ? engine.crash.slice(0, CRASH_SHOWN) + "…" : engine.crash;
    return engine.state === "ready"
      ? `The live engine crashed (${why}) and was restarted: edit a value to recompute.`
      : `The live engine crashed (${why}); restarting it…`;
  }
  return "";
}

function showNotice() {
  const existing = document.querySelector(".lw-notice");
  const text = pageWidgets.length ? noticeText() : "";
  if (!text) {
    if (existing) existing.remove();
    return;
  }
  const notice = existing || document.createElement("p");
  notice.className = "lw-notice";
  notice.dataset.level = engine.state === "failed" ? "failed" : "restarted";
  notice.textContent = text;
  const above = lostIn && lostIn.isConnected ? lostIn : pageWidgets[0].el;
  if (notice.nextElementSibling !== above) above.before(notice);
}

let lastState = engine.state;
onEngineChange(() => {
  for (const widget of pageWidgets) widget.showEngineState();
  showNotice();
  if (engine.state !== lastState && pageWidgets.length) { // said once typing pauses, like every announcement
    if (engine.state === "ready") announce("engine", () => "The live engine is ready: edits are recomputed.");
    else if (engine.state === "failed" || engine.crashes > crashSeen) announce("engine", noticeText);
  }
  lastState = engine.state;
});
document.addEventListener("layerwise:lost", (event) => {
  lostIn = event.target;
  showNotice();
});

/* "Skip to the live example", right after the heading the theme's own skip link leads to, shown only when focused:
 * from the top of the page, the first cell of a widget is a few key presses away. */
function skipToExample(first) {
  const skip = document.querySelector(".md-skip");
  const target = skip && document.getElementById(decodeURIComponent(skip.hash.slice(1)));
  if (!target || document.querySelector(".lw-skip")) return;
  const link = document.createElement("a");
  link.className = "lw-skip";
  link.href = "#" + first.el.id;
  link.textContent = "Skip to the live example";
  link.addEventListener("click", (event) => {
    event.preventDefault(); // the fragment holds edited values: leave it alone
    event.stopPropagation(); // and keep the theme's instant navigation from handling this link
    const cell = first.el.querySelector('.lw-cell[tabindex="0"]');
    if (cell) afterTheTheme(() => {
      cell.focus({ preventScroll: true });
      cell.scrollIntoView({ block: "center" });
      cell.select();
    });
  });
  target.after(link);
  // The theme's own skip link is followed by its instant navigation, which fetches this same page again and swaps
  // it in a moment later: the focus, by then perhaps on a cell reached through the link above, was dropped to the
  // body. On a page with widgets the skip link does its job here instead: the heading is scrolled to and focused,
  // so the next Tab reaches the link above, and nothing is fetched.
  target.tabIndex = -1;
  skip.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  });
}

/* A link to an edited example (#lw-<id>=<values>) names no element, so the browser stays at the top: on arriving by
 * such a link (not on a reload, which keeps its place), the page is scrolled to the first widget it holds. */
function scrollToLinked() {
  const [navigation] = performance.getEntriesByType("navigation");
  if (navigation && navigation.type === "reload") return;
  const linked = Object.keys(cells.readFragment(location.hash));
  const target = pageWidgets.find((widget) => linked.includes(widget.id));
  if (target) target.el.scrollIntoView({ block: "start" });
}

/* After the theme's own handling of a click (it may move the focus in a task of its own). */
function afterTheTheme(action) {
  setTimeout(action, 0);
}

function initPage() {
  const found = [...document.querySelectorAll(".lw-widget")];
  if (found.length && found.every((el) => el.dataset.lwReady)) return; // this document is already set up
  for (const el of found) el.dataset.lwReady = "true";
  if (found.length) setUpHelp();
  pageWidgets = found.map((el) => new Widget(el, saveLink));
  crashSeen = engine.crashes;
  lostIn = null;
  if (!pageWidgets.length) return;
  catchUpLink(editedValues);
  liveRegion();
  skipToExample(pageWidgets[0]);
  if (firstPage) scrollToLinked();
  firstPage = false;
  // The engine starts as soon as a page with widgets is set up and drawn, not when a widget comes on screen: a
  // reader who scrolls down to one finds it live. Not earlier: started from the page's <head>, the worker's wasm
  // compile took a core from the page's first layout and the theme's start-up (main-thread long tasks, cold: sum
  // 406 against 259 ms, longest 198 against 140 ms) without bringing the engine measurably sooner on 2 cores
  // (ready 0.94x cold, 1.05x warm; scripts/bench/bench_widgets.py, 5 rounds, ARCHITECTURE.md).
  if (arrivedAtPractice()) startEngineAfterPractice();
  else startEngineAfterFirstPaint();
  showNotice();
}

/* The page was opened, or reached by instant navigation, at an exercise or at the Practice heading. */
function arrivedAtPractice() {
  const target = window.Layerwise && window.Layerwise.fragmentTarget && window.Layerwise.fragmentTarget();
  return Boolean(target && (target.matches(".lw-exercise") || target.id === "practice"));
}

window.Layerwise = Object.assign(window.Layerwise || {}, { engine, cells, pause, widgets: () => pageWidgets });
// Set up now, then again on each instant navigation, which mkdocs-material announces on document$ (its bundle, a
// classic script, has run before any module).
initPage();
if (window.document$) window.document$.subscribe(initPage);
