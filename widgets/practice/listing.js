/* The list of every exercise (the practice-index fence): each row's state from storage, and a summary line. */
import { loadExercise } from "./storage.js";

export function fillListing(listing) {
  const rows = [...listing.querySelectorAll("tr[data-exercise]")];
  let passed = 0;
  for (const row of rows) {
    const state = loadExercise(row.dataset.exercise);
    const started = state.code !== null || state.hints > 0 || state.failures > 0;
    const text = state.passed ? "✓ passed" : started ? "started" : "not started";
    row.dataset.state = state.passed ? "passed" : started ? "started" : "new";
    row.querySelector(".lw-practice-index__state").textContent = text;
    if (state.passed) passed += 1;
  }
  listing.querySelector(".lw-practice-index__summary").textContent =
    `${rows.length} exercises; you passed ${passed} of them in this browser.`;
}
