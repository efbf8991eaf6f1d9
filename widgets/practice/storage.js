/* What the learner did, kept in this browser only (localStorage): per exercise its code, the hints opened, the
 * failed runs and whether it passed; per knowledge-check question the answer written. What is read back is checked
 * field by field (another script, an old version or a hand could have written anything there). A write that fails
 * (storage full or disabled) is kept in memory for this tab, so the work survives instant navigation, and the
 * caller is told, to tell the learner. Another tab's writes arrive as `storage` events (onStoredExercise). */
const PREFIX = "layerwise:";
const unsaved = new Map(); // key -> value this tab could not write

function read(key) {
  if (unsaved.has(key)) return unsaved.get(key);
  try {
    return JSON.parse(localStorage.getItem(PREFIX + key) || "null");
  } catch (error) {
    return null;
  }
}

/* Whether `value` (null: none) is in storage now. */
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
    unsaved.delete(key);
    return true;
  } catch (error) { // full or disabled
    unsaved.set(key, value);
    return false;
  }
}

const EMPTY_EXERCISE = { code: null, hints: 0, failures: 0, passed: false };
const isCount = (value) => Number.isInteger(value) && value >= 0;

/* A stored exercise record with every field of its type; a field that is not is the empty record's. */
function exerciseRecord(saved) {
  const valid = saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  return {
    code: typeof valid.code === "string" ? valid.code : null,
    hints: isCount(valid.hints) ? valid.hints : 0,
    failures: isCount(valid.failures) ? valid.failures : 0,
    passed: valid.passed === true,
  };
}

/* {code (null = the starter), hints, failures, passed} */
export function loadExercise(id) {
  return exerciseRecord(read(`practice:${id}`));
}

/* Store `state` merged with what is stored now: a pass stays a pass and the counts only grow, so a tab holding an
 * older record never takes another tab's progress back. The code is the caller's (see Exercise's other-tab check).
 * Returns {saved (false: only in this tab's memory), state (what is stored)}. */
export function saveExercise(id, state) {
  const stored = loadExercise(id);
  const merged = { code: state.code, hints: Math.max(state.hints, stored.hints),
                   failures: Math.max(state.failures, stored.failures), passed: state.passed || stored.passed };
  const isEmpty = Object.keys(EMPTY_EXERCISE).every((key) => merged[key] === EMPTY_EXERCISE[key]);
  return { saved: write(`practice:${id}`, isEmpty ? null : merged), state: merged };
}

/* listener(id, record) for each exercise record another tab of this site writes. */
export function onStoredExercise(listener) {
  window.addEventListener("storage", (event) => {
    if (!event.key || !event.key.startsWith(`${PREFIX}practice:`)) return;
    let value = null;
    try {
      value = JSON.parse(event.newValue || "null");
    } catch (error) { /* a record that does not parse reads as empty */ }
    listener(event.key.slice(`${PREFIX}practice:`.length), exerciseRecord(value));
  });
}

export function loadAnswer(key) {
  const saved = read(`answer:${key}`);
  return typeof saved === "string" ? saved : "";
}

export function saveAnswer(key, text) {
  return write(`answer:${key}`, text.trim() ? text : null);
}

/* "Build your GPT": the exercise ids whose passed code the learner switched back to the engine's. */
export function loadEngineInstead() {
  const saved = read("capstone:engine-instead");
  return Array.isArray(saved) ? saved.filter((id) => typeof id === "string") : [];
}

export function saveEngineInstead(ids) {
  return write("capstone:engine-instead", ids.length ? ids : null);
}
