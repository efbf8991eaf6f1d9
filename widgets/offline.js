/* Reading offline: registers the site's service worker (sw.js at the site's root, written by the build's offline
 * part), which keeps every file of this build, and says in the footer what is kept.
 *
 * Nothing competes with the page's start: the worker is registered once the page has loaded, no engine (the
 * widgets' or practice's) is still loading, and the main thread is idle. Where the browser says data is dear or
 * memory short (as for the engine's snapshot, engine-client.js), or the reader removed the offline copy, the footer
 * only offers it. Footer line: "Available offline · N MB · Remove" once the worker is active (it activates only
 * when every file is kept); "New version ready · Reload" when a newer build's worker waits: Reload lets it take
 * over, and every open page of the site then reloads, so no page of one build runs on the files of another.
 * Under `mkdocs serve` (<meta name="layerwise-offline" content="remove">) any worker and its copy are taken away. */
import { snapshotWanted } from "./engine-client.js";

const WORKER = new URL("../../sw.js", import.meta.url);
const SCOPE = new URL("../../", import.meta.url);
const REMOVED = "layerwise-offline-removed"; // localStorage: the reader removed the copy; offer it, do not make it
const PRECACHE = /^workbox-precache/; // the caches Workbox's precaching names
const IDLE_TIMEOUT_MS = 10_000;

const supported = "serviceWorker" in navigator && "caches" in window;
const mode = (document.querySelector('meta[name="layerwise-offline"]') || {}).content;
// Read by the tests: "offer" | "keeping" | "kept" | "update" | "failed" | "off"
const status = { state: "off", megabytes: 0, registration: null };

function render() {
  const footer = document.querySelector(".md-footer-meta__inner");
  if (!footer) return;
  let line = footer.querySelector(".lw-offline");
  if (status.state === "off") {
    if (line) line.remove();
    return;
  }
  if (!line) {
    line = document.createElement("div");
    line.className = "lw-offline";
    line.setAttribute("role", "status");
    footer.append(line);
  }
  const parts = {
    offer: ["Read this site offline", ["Keep a copy", keep]],
    keeping: ["Keeping a copy for reading offline…"],
    kept: ["Available offline", `${status.megabytes} MB`, ["Remove", remove]],
    update: ["New version ready", ["Reload", takeUpdate]],
    failed: ["The offline copy could not be kept", ["Try again", keep]],
  }[status.state];
  line.replaceChildren();
  parts.forEach((part, i) => {
    if (i) line.append(" · ");
    if (typeof part === "string") {
      line.append(part);
      return;
    }
    const [label, action] = part;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", action);
    line.append(button);
  });
}

function show(state) {
  status.state = state;
  render();
}

async function showKept() {
  const { usage = 0 } = navigator.storage && navigator.storage.estimate ? await navigator.storage.estimate() : {};
  status.megabytes = Math.round(usage / 1e6);
  show("kept");
}

/* Follow the registration: a worker installing (keeping), waiting behind one of another build (update), active. */
function follow(registration) {
  const update = () => {
    if (registration.waiting && registration.active) show("update");
    else if (registration.installing) show("keeping");
    else if (registration.active) showKept();
  };
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    show("keeping");
    installing.addEventListener("statechange", () => {
      if (installing.state === "redundant" && !registration.active) show("failed"); // a file could not be fetched
      else update();
    });
  });
  update();
}

async function register() {
  const url = new URL(WORKER);
  if (snapshotWanted()) url.searchParams.set("snapshot", "1"); // the worker keeps the snapshot the engine is sent
  try {
    const registration = await navigator.serviceWorker.register(url, { scope: SCOPE.pathname });
    if (!registration) return show("off"); // registration blocked (an automated browser)
    status.registration = registration;
    follow(registration);
  } catch (error) {
    show("failed");
  }
}

function keep() {
  localStorage.removeItem(REMOVED);
  show("keeping");
  register();
}

async function remove() {
  localStorage.setItem(REMOVED, "1");
  await removeAll();
  show("offer");
}

async function removeAll() {
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
  for (const name of await caches.keys()) if (PRECACHE.test(name)) await caches.delete(name);
}

function takeUpdate() {
  const waiting = status.registration && status.registration.waiting;
  if (!waiting) return;
  if (!navigator.serviceWorker.controller) { // a page the old worker did not serve hears of no change of controller
    waiting.addEventListener("statechange", () => waiting.state === "activated" && location.reload());
  }
  waiting.postMessage({ type: "skip-waiting" });
}

/* Resolves once the page has loaded, no engine is loading, and the main thread is idle. */
async function pageSettled() {
  if (document.readyState !== "complete") await new Promise((resolve) => addEventListener("load", resolve, { once: true }));
  const engines = () => [window.Layerwise && window.Layerwise.engine,
                         window.Layerwise && window.Layerwise.practice && window.Layerwise.practice.engine];
  while (engines().some((engine) => engine && engine.state === "loading")) {
    await new Promise((resolve) => {
      const settled = () => resolve();
      document.addEventListener("layerwise:engine", settled, { once: true });
      document.addEventListener("layerwise:practice", settled, { once: true });
    });
  }
  await new Promise((resolve) => (window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: IDLE_TIMEOUT_MS })
    : setTimeout(resolve, 0)));
}

async function start() {
  if (!supported) return;
  if (mode === "remove") {
    await removeAll();
    return;
  }
  if (mode !== "keep") return;
  // A newer build's worker took over (Reload here or in another tab): this page is of the old build.
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (hadController) location.reload();
  });
  await pageSettled();
  if (localStorage.getItem(REMOVED) || !snapshotWanted()) {
    const registration = await navigator.serviceWorker.getRegistration(SCOPE.href);
    if (registration && registration.active) {
      status.registration = registration;
      follow(registration);
    } else {
      show("offer");
    }
    return;
  }
  register();
}

window.Layerwise = Object.assign(window.Layerwise || {}, { offline: status });
// Instant navigation replaces the footer: draw the line again on each page (mkdocs-material's document$).
if (window.document$) window.document$.subscribe(render);
start();
