/* Layerwise: how a Web Worker gets Pyodide, NumPy and the engine. Loaded with importScripts by both workers (the
 * widgets' and practice's), so the two load the engine the same way. The site's lock file lists the engine as the
 * package "layerwise", depending on NumPy, and NumPy where the runtime is served from: one loadPackage by name
 * fetches both at once. `step(stage)` reports progress; a failure throws an Error whose message says what is missing. */
"use strict";

async function loadEngine(pyodideURL, lockFileURL, step) {
  step("loading the Python runtime");
  try {
    importScripts(pyodideURL + "pyodide.js");
  } catch (error) {
    throw new Error(`the Python runtime could not be fetched from ${pyodideURL} (${error.message})`);
  }
  const pyodide = await self.loadPyodide({ indexURL: pyodideURL, lockFileURL, stdout: () => {}, stderr: () => {} });
  step("loading NumPy and the engine");
  const problems = [];
  await pyodide.loadPackage("layerwise", { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
  const why = `(${problems.join("; ") || "no reason given"})`;
  if (!("numpy" in pyodide.loadedPackages)) throw new Error(`NumPy from ${pyodideURL} could not be loaded ${why}`);
  if (!("layerwise" in pyodide.loadedPackages)) throw new Error(`the engine could not be loaded ${why}`);
  return pyodide;
}
