/* Knowledge checks that ask for an answer: the build gives each question (mkdocs-material's `??? question` block)
 * a text box between the question and its collapsed explanation (practice/progress.py of the build); here each box gets
 * the answer kept in this browser and keeps what the learner writes. */
import { loadAnswer, saveAnswer } from "./storage.js";

const SAVE_DELAY_MS = 300;

/* A stable key for a question: the page and a hash of its text (prose edits elsewhere do not move it). */
function questionKey(text) {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + char.codePointAt(0)) | 0;
  return `${location.pathname}:${(hash >>> 0).toString(36)}`;
}

function keepAnswer(box, onChange) {
  const answer = box.querySelector(".lw-question__answer");
  const key = questionKey(box.querySelector(".lw-question__text").textContent.trim());
  answer.value = loadAnswer(key);
  let timer = null;
  answer.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      saveAnswer(key, answer.value);
      onChange();
    }, SAVE_DELAY_MS);
  });
  return answer;
}

/* Connect the boxes on this page (once); returns a function counting the answered questions: {answered, total}. */
export function initKnowledgeChecks(onChange) {
  const boxes = [...document.querySelectorAll("article .lw-question")].map((box) => keepAnswer(box, onChange));
  return () => ({ answered: boxes.filter((box) => box.value.trim()).length, total: boxes.length });
}
