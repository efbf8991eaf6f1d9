/* The reader's pauses in typing. What need not follow every keystroke waits for the next pause: what a screen reader
 * hears (widget-announce.js) and the page's link (widget-storage.js). */
// No key for `ms`: the reader has stopped typing. Read by the tests as window.Layerwise.pause, which may make it
// longer so that no pause comes in the middle of a test.
export const pause = { ms: 900 };

let timer = null;
let lastKeyAt = -Infinity;
const waiting = new Map(); // who -> its task, run at the next pause; a later call by the same who replaces it

function runWaiting() {
  timer = null;
  const tasks = [...waiting.values()];
  waiting.clear();
  for (const task of tasks) task();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(runWaiting, Math.max(0, lastKeyAt + pause.ms - performance.now()));
}

/* The reader typed: whatever is waiting waits for the next pause. */
export function typing() {
  lastKeyAt = performance.now();
  if (waiting.size) schedule();
}

/* Run `task` at the next pause in typing (at once when the reader is not typing). */
export function atNextPause(who, task) {
  waiting.set(who, task);
  schedule();
}

/* Run `who`'s waiting task now, if it has one (the reader asked for its result, e.g. copied the link). */
export function runNow(who) {
  const task = waiting.get(who);
  if (!task) return;
  waiting.delete(who);
  task();
}
