/* Layerwise: what both Web Workers (the widgets' and practice's) share, loaded by each with importScripts: how a
 * worker gets Pyodide, NumPy and the engine, and how it reports progress and a failed request. The site's lock file
 * lists the engine under its distribution's name (engine-config.js's `distribution`: "layerwise"), depending on
 * NumPy, and NumPy where the runtime is served from: one loadPackage by name fetches both at once. A failure to load
 * throws an Error whose message says what is missing. With `snapshotURL` (engine-client.js leaves it out where data
 * is dear or memory short) the interpreter is restored from its memory snapshot instead of started. */
"use strict";

async function loadEngine({ pyodideURL, lockFileURL, distribution, snapshotURL }) {
  postStage("loading the Python runtime");
  try {
    importScripts(pyodideURL + "pyodide.js");
  } catch (error) {
    throw new Error(`the Python runtime could not be fetched from ${pyodideURL} (${error.message})`);
  }
  const options = { indexURL: pyodideURL, lockFileURL, stdout: () => {}, stderr: () => {} };
  let pyodide = null;
  if (snapshotURL && typeof DecompressionStream === "function") {
    try {
      // Fetched beside the runtime's wasm (loadPyodide starts that fetch before it waits for the snapshot).
      postStage("restoring the Python runtime from its snapshot");
      pyodide = await self.loadPyodide({ ...options, _loadSnapshot: fetchSnapshot(snapshotURL) });
    } catch (error) {
      // Not fetched, or made by another build of the runtime: start CPython instead, as without a snapshot.
      postStage(`starting the Python runtime (its snapshot: ${error.message})`);
    }
  }
  pyodide = pyodide || await self.loadPyodide(options);
  postStage("loading NumPy and the engine");
  const problems = [];
  await pyodide.loadPackage(distribution, { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
  const why = `(${problems.join("; ") || "no reason given"})`;
  if (!("numpy" in pyodide.loadedPackages)) throw new Error(`NumPy from ${pyodideURL} could not be loaded ${why}`);
  if (!(distribution in pyodide.loadedPackages)) {
    throw new Error(`the engine (${distribution}) could not be loaded ${why}`);
  }
  return pyodide;
}

/* The interpreter's memory snapshot (scripts/build/.../snapshot.py), served gzipped and inflated as it arrives; a
 * host that sent it with Content-Encoding: gzip has had the browser inflate it already. */
async function fetchSnapshot(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const inflated = /gzip/.test(response.headers.get("Content-Encoding") || "") ? response
    : new Response(response.body.pipeThrough(new DecompressionStream("gzip")));
  return new Uint8Array(await inflated.arrayBuffer());
}

function postStage(stage) {
  self.postMessage({ type: "progress", stage });
}

/* Request `id` failed with `error`. A Python exception leaves the interpreter usable, so it is an answer carrying
 * the error's last line; anything else (a fatal wasm error, out of memory) is reported as "died". `post`: how the
 * worker answers (practice's: its private port). */
function postFailure(id, error, post = (message) => self.postMessage(message)) {
  const message = String((error && error.message) || error).trim().split("\n").pop();
  post({ type: error && error.type ? "result" : "died", id, error: message });
}
