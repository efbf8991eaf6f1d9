/* Layerwise: what both Web Workers (the widgets' and practice's) share, loaded by each with importScripts: how a
 * worker gets Pyodide, NumPy and the engine, and how it reports progress and a failed request. The site's lock file
 * lists the engine under its distribution's name (engine-config.js's `distribution`: "layerwise"), depending on
 * NumPy, and NumPy where the runtime is served from: one loadPackage by name fetches both at once. A failure to load
 * throws an Error whose message says what is missing. */
"use strict";

async function loadEngine(pyodideURL, lockFileURL, distribution) {
  postStage("loading the Python runtime");
  try {
    importScripts(pyodideURL + "pyodide.js");
  } catch (error) {
    throw new Error(`the Python runtime could not be fetched from ${pyodideURL} (${error.message})`);
  }
  const pyodide = await self.loadPyodide({ indexURL: pyodideURL, lockFileURL, stdout: () => {}, stderr: () => {} });
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

function postStage(stage) {
  self.postMessage({ type: "progress", stage });
}

/* Request `id` failed with `error`. A Python exception leaves the interpreter usable, so it is an answer carrying
 * the error's last line; anything else (a fatal wasm error, out of memory) is reported as "died". */
function postFailure(id, error) {
  const message = String((error && error.message) || error).trim().split("\n").pop();
  self.postMessage({ type: error && error.type ? "result" : "died", id, error: message });
}
