/* What the learner did, kept in this browser only (localStorage): per exercise its code, the hints opened, the
 * failed runs and whether it passed; per knowledge-check question the answer written. Storage that is full or
 * disabled loses the state silently: practice still works, it is just not remembered. */
const PREFIX = "layerwise:";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + key) || "null");
  } catch (error) {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch (error) { /* full or disabled */ }
}

const EMPTY_EXERCISE = { code: null, hints: 0, failures: 0, passed: false };

/* {code (null = the starter), hints, failures, passed} */
export function loadExercise(id) {
  const saved = read(`practice:${id}`);
  return { ...EMPTY_EXERCISE, ...(saved && typeof saved === "object" ? saved : {}) };
}

export function saveExercise(id, state) {
  const isEmpty = Object.keys(EMPTY_EXERCISE).every((key) => state[key] === EMPTY_EXERCISE[key]);
  write(`practice:${id}`, isEmpty ? null : state);
}

export function loadAnswer(key) {
  const saved = read(`answer:${key}`);
  return typeof saved === "string" ? saved : "";
}

export function saveAnswer(key, text) {
  write(`answer:${key}`, text.trim() ? text : null);
}

/* "Build your GPT": the exercise ids whose passed code the learner switched back to the engine's. */
export function loadEngineInstead() {
  const saved = read("capstone:engine-instead");
  return Array.isArray(saved) ? saved.filter((id) => typeof id === "string") : [];
}

export function saveEngineInstead(ids) {
  write("capstone:engine-instead", ids.length ? ids : null);
}
