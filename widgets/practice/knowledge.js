/* Knowledge checks that ask for an answer: each question (mkdocs-material's `??? question` block) gets a small
 * text box between the question and its reveal, kept in this browser. The question's text moves out of the
 * collapsed block so it stays readable above the box; the block itself becomes "Show the explanation". */
import { element } from "./feedback.js";
import { loadAnswer, saveAnswer } from "./storage.js";

const SAVE_DELAY_MS = 300;

/* A stable key for a question: the page and a hash of its text (prose edits elsewhere do not move it). */
function questionKey(text) {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + char.codePointAt(0)) | 0;
  return `${location.pathname}:${(hash >>> 0).toString(36)}`;
}

function addAnswerBox(details, number, onChange) {
  const summary = details.querySelector(":scope > summary");
  const key = questionKey(summary.textContent.trim());
  const box = element("div", "lw-question");
  const question = element("p", "lw-question__text");
  question.append(...summary.childNodes);
  summary.textContent = "Show the explanation";
  const id = `lw-answer-${number}`;
  const label = element("label", "lw-question__label", "Your answer");
  label.htmlFor = id;
  const answer = element("textarea", "lw-question__answer");
  answer.id = id;
  answer.rows = 2;
  answer.value = loadAnswer(key);
  let timer = null;
  answer.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      saveAnswer(key, answer.value);
      onChange();
    }, SAVE_DELAY_MS);
  });
  details.before(box);
  box.append(question, label, answer, details);
  return answer;
}

/* Add the boxes on this page (once); returns a function counting the answered questions: {answered, total}. */
export function initKnowledgeChecks(onChange) {
  const boxes = [...document.querySelectorAll("article details.question")]
    .map((details, i) => details.closest(".lw-question")
      ? details.closest(".lw-question").querySelector(".lw-question__answer")
      : addAnswerBox(details, i + 1, onChange));
  return () => ({ answered: boxes.filter((box) => box.value.trim()).length, total: boxes.length });
}
