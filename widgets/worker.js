/* Layerwise widgets, part 3: the one Web Worker per tab that runs Pyodide, NumPy and the engine wheel.
 * It receives {kind, inputs as JSON of numbers} and answers with the JSON that engine.examples.run_json made.
 * The page never blocks on Python, and never sends code: only the kind's name and arrays of numbers. */
"use strict";
let runJson = null;

function step(stage) {
  self.postMessage({ type: "progress", stage });
}

async function loadPackageOrFail(pyodide, what, nameOrUrl, check) {
  const problems = [];
  await pyodide.loadPackage(nameOrUrl, { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
  if (!check()) throw new Error(`${what} could not be loaded (${problems.join("; ") || "no reason given"})`);
}

async function start({ pyodideURL, wheelURL }) {
  try {
    step("loading the Python runtime");
    try {
      importScripts(pyodideURL + "pyodide.js");
    } catch (error) {
      throw new Error(`the Python runtime could not be fetched from ${pyodideURL} (${error.message})`);
    }
    const pyodide = await self.loadPyodide({ indexURL: pyodideURL, stdout: () => {}, stderr: () => {} });
    step("loading NumPy");
    await loadPackageOrFail(pyodide, `NumPy from ${pyodideURL}`, "numpy", () => "numpy" in pyodide.loadedPackages);
    step("loading the engine");
    await loadPackageOrFail(pyodide, "the engine wheel", wheelURL, () => "layerwise" in pyodide.loadedPackages);
    runJson = pyodide.pyimport("engine.examples").run_json;
    self.postMessage({ type: "ready" });
  } catch (error) {
    self.postMessage({ type: "failed", reason: String((error && error.message) || error) });
  }
}

function compute({ id, kind, inputs }) {
  try {
    self.postMessage({ type: "result", id, json: runJson(kind, inputs) });
  } catch (error) {
    const message = String((error && error.message) || error).trim().split("\n").pop();
    // A Python exception leaves the interpreter usable; anything else (a fatal wasm error) does not.
    self.postMessage({ type: error && error.type ? "result" : "died", id, error: message });
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "start") start(message);
  else if (message.type === "compute") compute(message);
};
