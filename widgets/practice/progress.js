/* The page's progress, shown under its title ("Practice 2/3 · Knowledge check 1/4 answered") and in the Practice
 * heading's count; both are written by the build with nothing passed (the build's practice/progress.py) and recomputed
 * here in place from storage whenever an exercise passes or an answer changes. */
import { loadExercise } from "./storage.js";

export function showProgress(exerciseIds, answers) {
  const passed = exerciseIds.filter((id) => loadExercise(id).passed).length;
  const parts = [];
  if (exerciseIds.length) parts.push(`Practice ${passed}/${exerciseIds.length}`);
  if (answers.total) parts.push(`Knowledge check ${answers.answered}/${answers.total} answered`);
  const count = document.querySelector(".lw-practice-count");
  if (count) count.textContent = `${passed}/${exerciseIds.length}`;
  const line = document.querySelector(".lw-progress");
  if (line) line.textContent = parts.join(" · ");
}
