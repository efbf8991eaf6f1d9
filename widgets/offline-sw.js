/* Layerwise's service worker: keeps every file of one build of the site (its pages, assets, the engine's wheel and
 * lock, the Python runtime, NumPy) so that a reader who has visited once reads on, live, with the network off.
 * The build (layerwise_build/offline/) bundles this file with Workbox's precaching into the site's sw.js, after a
 * line that sets self.LAYERWISE_OFFLINE = {build, precache: [{url, revision}], snapshot}.
 *
 * Workbox keeps each file under its URL and revision (a content hash) and serves it cache-first; an updated sw.js
 * (another build) downloads only the files whose revision changed, then waits: the old build's worker keeps serving
 * its own files until the reader accepts the new version (offline.js sends "skip-waiting", and every page of the
 * site reloads on the change of controller), so a page of one build never runs with a wheel of another. The files
 * the old build alone had are then deleted. The interpreter's memory snapshot is kept only when the page asked for
 * it (sw.js?snapshot=1: not where data is dear or memory short, as the workers do). */
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";

const { build, precache, snapshot, reusable } = self.LAYERWISE_OFFLINE;
const withSnapshot = new URL(self.location.href).searchParams.get("snapshot") === "1";
const fromHttpCache = new Set(reusable.map((url) => new URL(url, self.location.href).href));

cleanupOutdatedCaches();
// Workbox fetches a file with a revision past the HTTP cache, so that a stale copy is never kept under a new
// revision. The runtime, the engine's folder and the snapshot never change under their URL (named by version or
// content): those come from the HTTP cache where the page's engine has just put them, or the first visit would
// download the 8.6 MB wasm twice.
addPlugins([{
  requestWillFetch: async ({ request }) => (fromHttpCache.has(request.url) ? new Request(request, { cache: "default" })
    : request),
}]);
// Pages are asked for as folders (layers/layernorm/), which mkdocs writes as folder/index.html.
precacheAndRoute(precache.filter((entry) => withSnapshot || entry.url !== snapshot), { directoryIndex: "index.html" });

self.addEventListener("message", (event) => {
  const { type } = event.data || {};
  if (type === "skip-waiting") self.skipWaiting();
  if (type === "build" && event.ports[0]) event.ports[0].postMessage({ build });
});
