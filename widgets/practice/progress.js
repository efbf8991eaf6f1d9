/* The page's progress, shown under its title ("Practice 2/3 · Knowledge check 1/4 answered") and in the Practice
 * heading's count; both are recomputed from storage whenever an exercise passes or an answer changes. */
import { element } from "./feedback.js";
import { loadExercise } from "./storage.js";

export function showProgress(exerciseIds, answers) {
  const passed = exerciseIds.filter((id) => loadExercise(id).passed).length;
  const parts = [];
  if (exerciseIds.length) parts.push(`Practice ${passed}/${exerciseIds.length}`);
  if (answers.total) parts.push(`Knowledge check ${answers.answered}/${answers.total} answered`);
  const count = document.querySelector(".lw-practice-count");
  if (count) count.textContent = `${passed}/${exerciseIds.length}`;
  const title = document.querySelector("article h1");
  if (!parts.length || !title) return;
  let line = document.querySelector(".lw-progress");
  if (!line) {
    line = element("p", "lw-progress");
    line.setAttribute("aria-live", "polite");
    title.after(line);
  }
  line.textContent = parts.join(" · ");
}
