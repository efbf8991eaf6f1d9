/* One exercise on the page: the editor in place of the pre-rendered starter, the buttons Run tests, Hint,
 * Solution and Reset, and what a run shows. Code runs only when the learner clicks Run or presses Ctrl/Cmd-Enter:
 * never on page load, never from stored code or a link. */
import { mountCode, mountEditor } from "./editor.js";
import { RUN_LIMIT_MS, grade, onEngineChange, practiceEngine, warmUp } from "./engine.js";
import { element, showResult, withCode } from "./feedback.js";
import { loadExercise, onStoredExercise, saveExercise } from "./storage.js";

const SOLUTION_AFTER_FAILURES = 3;
const SAVE_DELAY_MS = 300; // typing writes localStorage at most this often

const running = new Set(); // exercises waiting for a verdict, told about the engine's start-up steps
onEngineChange((client) => {
  for (const exercise of running) if (client.state === "loading") exercise.setStatus(startingText(client.stage));
});

const shown = new Map(); // id -> the Exercise of the page set up last, which another tab's writes are told to
onStoredExercise((id, record) => {
  const exercise = shown.get(id);
  if (exercise && exercise.el.isConnected) exercise.fromOtherTab(record);
});

function startingText(stage) {
  return `Starting Python in this tab (a few seconds the first time): ${stage || "starting"}…`;
}

/* A pre-rendered control made live. */
function control(node, onClick) {
  node.addEventListener("click", onClick);
  node.disabled = false;
  return node;
}

function button(text, onClick, className) {
  const node = element("button", `lw-button ${className}`, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

export class Exercise {
  /* el: the pre-rendered .lw-exercise; onProgress(): called when its passed state may have changed. */
  constructor(el, onProgress) {
    this.el = el;
    this.id = el.dataset.exercise;
    this.title = el.querySelector(".lw-exercise__title").textContent;
    this.data = JSON.parse(el.dataset.practice); // {function, starter, solution, hints, lab}
    this.state = loadExercise(this.id);
    if (this.state.hints > this.data.hints.length) this.state.hints = 0; // not a count this exercise can have
    this.storedCode = this.state.code; // the code this tab last read from storage or wrote there
    this.otherCode = undefined; // another tab's code, while the learner has not chosen between it and this tab's
    this.onProgress = onProgress;
    shown.set(this.id, this);
    this.editor = null;
    this.mounted = null; // the promise of the editor, once asked for
    this.saveTimer = null;
    this.showState();
  }

  /* Replace the static starter with the editor and add the controls (once; later calls get the same promise);
   * without the editor the page stays static. */
  mount() {
    this.mounted = this.mounted || this.makeEditor();
    return this.mounted;
  }

  /* The bar, notes and result places are in the page already (layerwise_build/practice/fence.py), at their size: the editor
   * takes the starter's place and the controls come alive, and nothing around them moves. */
  async makeEditor() {
    const code = this.el.querySelector(".lw-exercise__code");
    this.editor = await mountEditor(code, {
      doc: this.state.code !== null ? this.state.code : this.data.starter,
      label: `Python code for the exercise ${this.title}`,
      onRun: () => this.run(),
      onChange: (text) => this.codeChanged(text),
      onFocus: warmUp,
    });
    const part = (name) => this.el.querySelector(`.lw-exercise__${name}`);
    this.runButton = control(part("run"), () => this.run());
    this.runButton.title = "Ctrl+Enter in the editor";
    this.hintButton = control(part("hint"), () => this.showNextHint());
    this.solutionButton = control(part("solution-button"), () => this.toggleSolution());
    this.resetButton = control(part("reset"), () => this.reset());
    this.status = part("status");
    this.hints = part("hints");
    this.solution = part("solution");
    this.feedback = part("feedback");
    for (let i = 0; i < this.state.hints; i++) this.hints.append(withCode("li", "", this.data.hints[i]));
    this.showState();
  }

  async run() {
    if (!this.editor || running.has(this)) return;
    running.add(this);
    this.runButton.disabled = true;
    this.setStatus(practiceEngine.state === "ready" ? "Running the tests…" : startingText(practiceEngine.stage));
    const code = this.editor.getCode();
    this.codeChanged(code, 0); // the graded code is stored with its verdict, not 300 ms later: "Build your GPT" uses it
    try {
      this.showVerdict(await grade(this.id, code));
    } catch (error) {
      this.showStopped(error);
    } finally {
      running.delete(this);
      this.runButton.disabled = false;
    }
  }

  showVerdict(result) {
    showResult(this.feedback, result);
    if (result.passed) {
      this.state.passed = true;
      this.setStatus("Passed. Well done.");
    } else {
      this.state.failures += 1;
      this.setStatus("Not yet: the first check that failed is below.");
    }
    this.save();
    this.showState();
    this.onProgress();
  }

  /* No verdict: the run was stopped, Python crashed, or the engine cannot load here. One line says which. */
  showStopped(error) {
    this.feedback.replaceChildren();
    if (error.cause === "failed") {
      this.setStatus(`Running the tests needs the live engine, which could not load here: ${error.message}. ` +
                     "The statement and the starter code still hold.");
      return;
    }
    this.setStatus(error.cause === "timeout"
      ? `Stopped after ${RUN_LIMIT_MS / 1000} s: your code was still running (an endless loop, or a very large ` +
        "array?). Its Python was shut down; the next Run starts a fresh one."
      : `Python stopped while running your code (${error.message}); the next Run starts a fresh one.`);
    this.state.failures += 1;
    this.save();
    this.showState();
  }

  showNextHint() {
    if (this.state.hints >= this.data.hints.length) return;
    this.addHint();
    this.save();
    this.showState();
  }

  addHint() {
    if (this.hints) this.hints.append(withCode("li", "", this.data.hints[this.state.hints]));
    this.state.hints += 1;
  }

  async toggleSolution() {
    if (this.solution.hidden && !this.solution.childElementCount) {
      await mountCode(this.solution, { doc: this.data.solution, label: `Solution of the exercise ${this.title}` });
    }
    this.solution.hidden = !this.solution.hidden;
    this.showState();
  }

  /* The starter back, undoably: the editor's own undo (Ctrl-Z) or the status line's Undo brings the code back. */
  reset() {
    clearTimeout(this.saveTimer);
    this.editor.setCode(this.data.starter);
    this.state.code = null;
    this.feedback.replaceChildren();
    this.setStatus("The starter code is back. ");
    this.status.append(button("Undo", () => {
      this.editor.undo();
      this.setStatus("Your code is back.");
      this.editor.focus();
    }, "lw-exercise__undo"));
    this.save();
  }

  codeChanged(text, delayMs = SAVE_DELAY_MS) {
    clearTimeout(this.saveTimer);
    const store = () => {
      this.state.code = text === this.data.starter ? null : text;
      this.save();
    };
    if (delayMs) this.saveTimer = setTimeout(store, delayMs);
    else store();
  }

  /* Store the state. Code another tab stored since this tab last looked is not replaced: the learner is asked. */
  save() {
    const stored = loadExercise(this.id);
    if (stored.code !== this.storedCode && stored.code !== this.state.code) this.offerOtherCode(stored.code);
    const keepTheirs = this.otherCode !== undefined;
    const { saved, state } = saveExercise(this.id, { ...this.state, code: keepTheirs ? stored.code : this.state.code });
    if (!keepTheirs) this.storedCode = state.code;
    this.catchUp(state);
    if (!saved) this.warnUnsaved();
  }

  /* What another tab stored for this exercise (a storage event). */
  fromOtherTab(record) {
    this.catchUp(record);
    if (record.code === this.storedCode) return;
    if (record.code === this.state.code) this.storedCode = record.code;
    else this.offerOtherCode(record.code);
  }

  /* Progress made in another tab: its pass, failed runs and hints opened (counts only grow, a pass stays). */
  catchUp(record) {
    const before = this.state.passed;
    this.state.passed = this.state.passed || record.passed;
    this.state.failures = Math.max(this.state.failures, record.failures);
    while (this.state.hints < Math.min(record.hints, this.data.hints.length)) this.addHint();
    this.showState();
    if (this.state.passed !== before) this.onProgress();
  }

  /* Another tab stored `code`: with no editor yet this tab has nothing of its own, so it takes it; otherwise the
   * learner chooses, and until then this tab's typing does not overwrite it. */
  offerOtherCode(code) {
    if (!this.editor) {
      this.state.code = this.storedCode = code;
      return;
    }
    this.otherCode = code;
    this.setStatus("Another tab saved other code for this exercise. ");
    this.status.append(button("Load it", () => this.chooseCode(true), "lw-exercise__their-code"), " ",
                       button("Keep this one", () => this.chooseCode(false), "lw-exercise__our-code"));
  }

  chooseCode(theirs) {
    const code = this.otherCode;
    this.otherCode = undefined;
    this.storedCode = code;
    if (theirs) {
      this.state.code = code;
      this.editor.setCode(code === null ? this.data.starter : code);
      this.setStatus("The other tab's code is here.");
    } else {
      this.codeChanged(this.editor.getCode(), 0);
      this.setStatus("This tab's code is saved.");
    }
  }

  /* Storage is full or turned off: the work stays in this tab (storage.js keeps it in memory); the learner is told
   * and can download the code. */
  warnUnsaved() {
    if (!this.status || this.status.querySelector(".lw-exercise__unsaved")) return;
    const note = element("span", "lw-exercise__unsaved", " This browser could not save your work (its storage is " +
      "full or turned off): it is kept only while this tab is open. ");
    note.append(button("Download your code", () => this.downloadCode(), "lw-exercise__download"));
    this.status.append(note);
  }

  downloadCode() {
    const link = element("a");
    link.href = URL.createObjectURL(new Blob([this.editor.getCode()], { type: "text/x-python" }));
    link.download = `${this.id}.py`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }

  setStatus(text) {
    if (this.status) this.status.textContent = text;
  }

  /* Badge, hint and solution buttons from the stored state. */
  showState() {
    const badge = this.el.querySelector(".lw-exercise__state");
    const state = this.state.passed ? "passed" : this.state.failures ? "tried" : "new";
    badge.dataset.state = state;
    badge.textContent = { passed: "passed", tried: "not passed yet", new: "not passed yet" }[state];
    this.el.dataset.state = state;
    if (!this.hintButton) return;
    const total = this.data.hints.length;
    this.hintButton.disabled = this.state.hints >= total;
    this.hintButton.textContent = this.state.hints >= total ? `All ${total} hints shown`
      : `Hint ${this.state.hints + 1} of ${total}`;
    this.solutionButton.hidden = !(this.state.passed || this.state.failures >= SOLUTION_AFTER_FAILURES);
    this.solutionButton.textContent = this.solution.hidden ? "Show the solution" : "Hide the solution";
  }
}
