/* The practice worker's answers read as untrusted data: the learner's code ran in the Python that wrote them and
 * could have changed what it writes. Each reader returns the parsed answer when every field the page uses has its
 * type, or throws Unreadable naming the first that does not; texts the page shows whole are cut to MAX_TEXT. */
export class Unreadable extends Error {
  constructor(what) {
    super(`its answer was not understood: ${what}`);
    this.name = "Unreadable";
  }
}

export const MAX_TEXT = 2_000; // characters of an error message shown, as engine/exercises/_grader.py cuts printed output

const isText = (value) => typeof value === "string";
const isFlag = (value) => typeof value === "boolean";
const isNumber = (value) => Number.isFinite(value);
const isCount = (value) => Number.isInteger(value) && value >= 0;
const isObject = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
const isList = (value, item) => Array.isArray(value) && value.every(item);
const isGrid = (value, cell) => isList(value, (row) => isList(row, cell));
const isMatrix = (value) => isObject(value) && isText(value.name) && isGrid(value.cells, isText);
const absent = (value) => value === null || value === undefined;
const maybe = (test) => (value) => absent(value) || test(value);

function parsed(json) {
  if (!isText(json)) throw new Unreadable("no JSON text");
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new Unreadable("not JSON");
  }
}

/* `fields`: {name: test}; the first failing test is named. */
function checked(value, fields, what) {
  if (!isObject(value)) throw new Unreadable(`${what} is not an object`);
  for (const [name, test] of Object.entries(fields)) {
    if (!test(value[name])) throw new Unreadable(`${what}'s ${name}`);
  }
  return value;
}

function cut(text) {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length - MAX_TEXT} more characters)` : text;
}

const FAILURE = { message: isText, inputs: maybe((inputs) => isList(inputs, isMatrix)), expected: maybe(isMatrix),
  got: maybe(isMatrix), wrong: maybe((wrong) => isGrid(wrong, isFlag)), hint: maybe(isText) };
const ERROR = { type: isText, message: isText, line: maybe(isCount), code: maybe(isText) };

/* engine.exercises.grade's dict (see feedback.js); the learner's error message and line cut to MAX_TEXT. */
export function gradeResult(json) {
  const result = checked(parsed(json), {
    passed: isFlag, checks: (checks) => isList(checks, (c) => isObject(c) && isText(c.name) && isFlag(c.passed)),
    failure: maybe(isObject), error: maybe(isObject), output: maybe(isText), figure: maybe(isText),
  }, "the grade");
  if (result.failure) checked(result.failure, FAILURE, "the failure");
  if (result.error) {
    checked(result.error, ERROR, "the error");
    result.error = { ...result.error, message: cut(result.error.message), code: cut(result.error.code || "") };
  }
  return result;
}

/* engine.capstone.check's dict: {ok, problem} or {ok, loss, worst, culprit}. */
export function checkResult(json) {
  const result = checked(parsed(json), { ok: isFlag, problem: maybe(isText) }, "the check");
  if (result.problem) return result;
  if (result.ok) {
    checked(result, { loss: (loss) => isList(loss, isNumber) && loss.length > 0, worst: isObject }, "the check");
    checked(result.worst, { name: isText, error: isNumber }, "the check's worst");
  } else if (result.culprit) {
    checked(result.culprit, { function: isText, where: isText, shapes: maybe(isText), problem: isText }, "the culprit");
  }
  return result;
}

/* engine.capstone.session.start_json's dict: {ok, problem?}. */
export function startResult(json) {
  return checked(parsed(json), { ok: isFlag, problem: maybe(isText) }, "the start");
}

/* One chunk of a training run: {step, losses, val, samples, done, problem}. */
export function chunkResult(json) {
  const isLoss = (loss) => loss === null || isNumber(loss);
  return checked(parsed(json), {
    step: isCount, losses: (losses) => isList(losses, isLoss), done: isFlag, problem: maybe(isText),
    val: (val) => isList(val, (pair) => isList(pair, isLoss) && pair.length === 2 && isCount(pair[0])),
    samples: (samples) => isList(samples, (pair) => Array.isArray(pair) && pair.length === 2 && isCount(pair[0])
                                                     && isText(pair[1])),
  }, "the training chunk");
}

/* engine.capstone.session.generate_start_json's dict: {ok, cached} or {ok: false, problem}. */
export function generateStartResult(json) {
  const result = checked(parsed(json), { ok: isFlag, problem: maybe(isText) }, "the generation's start");
  return result.ok ? checked(result, { cached: isFlag }, "the generation's start") : result;
}

/* The next characters of a generation: {text, done, problem, calls}, calls {exercise id: count}. */
export function generateChunkResult(json) {
  const result = checked(parsed(json), {
    text: isText, done: isFlag, problem: maybe(isText),
    calls: (calls) => isObject(calls) && Object.values(calls).every(isCount),
  }, "the generated characters");
  return { ...result, text: cut(result.text), problem: result.problem && cut(result.problem) };
}
