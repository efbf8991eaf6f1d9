"""Practice in real Chromium: the exercise markup without JavaScript, the editor's keys, when things load, hints,
knowledge-check answers; with PYODIDE_DIST (marked live), grading for real in the practice worker: a pass, a known
mistake with its marked matrices, an endless loop stopped while a widget keeps working, reload and reset.

Code is typed into the editor with the keyboard (tests/browser/practice_pages.py), never set programmatically."""
import re
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect
from browser_pages import instant_go, reports_device, scroll_to_and_click, two_frames, wait_for_engine
from practice_pages import editor_code, exercise_page, matrix_cells, open_exercise, run_and_wait, type_code

from engine.examples import run
from engine.exercises import get

pytestmark = pytest.mark.browser
EXERCISE = "layernorm-forward"
RUN_LIMIT_S = 5  # widgets/practice/engine.js RUN_LIMIT_MS
PRACTICE_SET_UP = "document.body.dataset.lwPractice === location.pathname"  # widgets/practice/page.js


def requested(watched, fragment):
    return [url for url in watched.requests if fragment in url]


def test_without_javascript_the_statement_starter_and_note_are_there(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url + exercise_page(site, EXERCISE))
    exercise = page.locator(f'.lw-exercise[data-exercise="{EXERCISE}"]')
    assert exercise.locator(".lw-exercise__title").text_content() == "LayerNorm forward"
    assert "biased" in exercise.locator(".lw-exercise__statement").text_content()
    assert exercise.locator(".lw-exercise__statement .katex").count() == 1  # the formula, typeset at build time
    # textContent: the markup's text, whether or not the block is rendered yet (far off screen it skips layout, and
    # innerText of a skipped block is empty)
    assert exercise.locator(".lw-exercise__code pre").text_content().rstrip("\n") == get(EXERCISE).STARTER.rstrip("\n")
    assert exercise.locator(".lw-exercise__code .highlight .k").first.text_content() == "def"  # highlighted
    exercise.scroll_into_view_if_needed()  # rendered (from the next frame on): what CSS shows without JavaScript
    note = exercise.locator(".lw-exercise__note")
    expect(note).to_contain_text("Running the tests needs the live engine", use_inner_text=True)
    assert "Ctrl+Enter" not in note.inner_text()
    assert exercise.locator(".lw-exercise__bar").is_hidden()  # no button that cannot work
    count = page.locator("h2#practice .lw-practice-count")
    assert re.fullmatch(r"0/\d+", count.text_content())
    # What the script will fill in is there already, at its size: the progress line and the answer boxes
    questions = page.locator(".lw-question")
    assert questions.count() >= 1 and questions.locator("textarea.lw-question__answer").count() == questions.count()
    assert page.locator("article h1 + .lw-progress").text_content() == (
        f"Practice 0/{count.get_attribute('data-total')} · Knowledge check 0/{questions.count()} answered")
    context.close()


@pytest.mark.parametrize("memory_gb, cores", [(4, 2), (2, 8)], ids=["a core short", "memory short"])
def test_the_editor_and_the_practice_worker_load_only_when_an_exercise_nears_the_screen(watched, site, memory_gb,
                                                                                       cores):
    watched.context.add_init_script(reports_device(memory_gb, cores))
    page = watched.page
    page.goto(site.url)  # the home page: no exercise, no knowledge check
    page.wait_for_load_state("networkidle")
    assert requested(watched, "practice/loader.js")
    assert not requested(watched, "practice/page.js") and not requested(watched, "codemirror.bundle.js")

    page.goto(site.url + exercise_page(site, EXERCISE))  # at the top of the page, the exercises far below
    page.wait_for_function(PRACTICE_SET_UP)
    wait_for_engine(page)  # the widgets' engine has loaded (or failed): what the practice worker waits for
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise(r => requestIdleCallback(() => r(), {timeout: 2000}))")  # when it would start
    assert not requested(watched, "codemirror.bundle.js"), "the editor was loaded with the page"
    assert page.locator(".lw-exercise .cm-content").count() == 0
    assert page.evaluate("Layerwise.practice.engine.starts") == 0, "the practice worker started on page load"
    open_exercise(page, site, EXERCISE)  # scrolled to, as a reader gets there
    page.wait_for_function("Layerwise.practice.engine.starts === 1")
    assert requested(watched, "practice/worker.js")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_with_memory_and_a_core_to_spare_the_practice_worker_starts_after_the_widgets_engine_wherever_the_reader_is(
        request, live, device):
    watched = request.getfixturevalue("watched" if device == "desktop" else "watched_phone")
    watched.context.add_init_script(reports_device(4, cores=8))  # a phone of the last few years, or a desktop
    page = watched.page
    page.goto(live.url + exercise_page(live, EXERCISE))  # at the top of the page, the exercises far below
    page.wait_for_function(PRACTICE_SET_UP)
    page.wait_for_function("Layerwise.practice.engine.starts === 1")
    assert page.evaluate("Layerwise.engine.state") == "ready", "it started before the widgets' engine"
    assert page.evaluate("scrollY") == 0
    assert page.locator(".lw-exercise .cm-content").count() == 0, "the editor is still made only when needed"
    assert requested(watched, "practice/worker.js")


def test_arriving_at_an_exercise_starts_the_practice_worker_first_and_the_widgets_engine_once_it_has_settled(watched,
                                                                                                             site):
    held = []  # the practice worker's script, kept unanswered: that worker stays loading for as long as the test wants
    watched.context.route("**/practice/worker.js", lambda route: held.append(route))
    page = watched.page
    page.goto(site.url + exercise_page(site, EXERCISE) + f"#exercise-{EXERCISE}")  # the Practice page's link
    page.wait_for_function("window.Layerwise && Layerwise.practice && Layerwise.practice.engine.starts === 1")
    page.wait_for_load_state("load")
    two_frames(page)
    page.evaluate("() => new Promise(r => setTimeout(r, 0))")  # past the task the first paint's start would queue
    assert page.evaluate("Layerwise.engine.starts") == 0, "the widgets' engine started beside the practice worker"
    assert held, "the practice worker was never asked for"
    for route in held:
        route.abort()  # its start fails: the widgets' engine starts then
    page.wait_for_function("Layerwise.practice.engine.state === 'failed' && Layerwise.engine.starts === 1")


AFTER_THE_REST = "() => new Promise(r => setTimeout(r, 300))"  # past the rest a link asks (intent.js, 65 ms), in order


@pytest.mark.parametrize("memory_gb, how", [(4, "pointer"), (4, "keyboard"), (2, "pointer")],
                         ids=["the pointer rests", "the focus rests", "memory short"])
def test_resting_on_the_contents_link_to_practice_starts_the_practice_worker_before_the_jump(watched, site,
                                                                                            memory_gb, how):
    watched.context.add_init_script(reports_device(memory_gb))  # 2 cores: nothing else starts it at the top
    page = watched.page
    page.goto(site.url + exercise_page(site, EXERCISE))
    page.wait_for_function(PRACTICE_SET_UP)
    link = page.locator('.md-sidebar--secondary a.md-nav__link[href$="#practice"]')
    # A pointer passing over the contents: in and out in one task
    link.evaluate("""a => { a.dispatchEvent(new PointerEvent('pointerover', {bubbles: true}));
                          a.dispatchEvent(new PointerEvent('pointerout', {bubbles: true, relatedTarget: document.body})); }""")
    page.evaluate(AFTER_THE_REST)
    assert page.evaluate("Layerwise.practice.engine.starts") == 0, "a pointer passing over the link started it"
    if how == "pointer":
        link.hover()
    else:
        link.focus()
    if memory_gb < 4:
        page.evaluate(AFTER_THE_REST)
        assert page.evaluate("Layerwise.practice.engine.starts") == 0, "a link's promise spent short memory"
        return
    page.wait_for_function("Layerwise.practice.engine.starts === 1")
    assert page.evaluate(f"document.getElementById('exercise-{EXERCISE}').getBoundingClientRect().top > 2 * innerHeight")
    assert page.locator(".lw-exercise .cm-content").count() == 0, "the view moved to the exercise"


def test_the_static_starter_becomes_the_editor_when_the_keyboard_reaches_it(watched, site):
    page = watched.page
    page.goto(site.url + exercise_page(site, EXERCISE))
    page.wait_for_function(PRACTICE_SET_UP)
    code = page.locator(f'.lw-exercise[data-exercise="{EXERCISE}"] .lw-exercise__code')
    assert code.get_attribute("tabindex") == "0" and code.get_attribute("aria-label").startswith("Starter code")
    code.focus()  # as Tab puts it there; no scrolling by the test
    page.wait_for_function("el => el.querySelector('.cm-content') && el.contains(document.activeElement)"
                           " && document.activeElement.classList.contains('cm-content')", arg=code.element_handle())
    assert code.get_attribute("tabindex") is None  # one tab stop: the editor's
    page.keyboard.press("Control+End")
    page.keyboard.type("pass")
    assert editor_code(page.locator(f'.lw-exercise[data-exercise="{EXERCISE}"]')).endswith("pass")


def test_tab_indents_and_escape_then_tab_leaves_the_editor(watched, site):
    page = watched.page
    exercise = open_exercise(page, site, EXERCISE)
    exercise.locator(".cm-line").last.click()  # the empty last line of the starter
    page.keyboard.press("Control+End")
    page.keyboard.press("Tab")
    page.keyboard.type("pass")
    assert editor_code(exercise).split("\n")[-1] == "    pass"
    page.keyboard.press("Shift+Tab")
    assert editor_code(exercise).split("\n")[-1] == "pass"
    for _ in range(4):  # undo takes back what was typed (history groups quick edits, so up to a few presses)
        page.keyboard.press("Control+Z")
        if editor_code(exercise) == get(EXERCISE).STARTER:
            break
    assert editor_code(exercise) == get(EXERCISE).STARTER
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Run tests"


def test_hints_open_one_at_a_time_and_are_remembered(watched, site):
    page = watched.page
    exercise = open_exercise(page, site, EXERCISE)
    hints = get(EXERCISE).HINTS
    button = exercise.locator(".lw-exercise__hint")
    assert button.text_content() == f"Hint 1 of {len(hints)}"
    button.click()
    assert exercise.locator(".lw-exercise__hints li").all_text_contents() == [hints[0].replace("`", "")]
    button.click()
    assert exercise.locator(".lw-exercise__hints li").count() == 2
    assert exercise.locator(".lw-exercise__hints li code").count() >= 1  # `code` in a hint is shown as code
    page.reload()
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-content").wait_for()
    assert exercise.locator(".lw-exercise__hints li").count() == 2
    assert exercise.locator(".lw-exercise__hint").text_content() == f"Hint 3 of {len(hints)}"
    assert exercise.locator(".lw-exercise__solution-button").is_hidden()  # no pass, no three failed runs yet


STORE = "([key, record]) => localStorage.setItem(key, JSON.stringify(record))"
STORED = "key => JSON.parse(localStorage.getItem(key))"
KEY = f"layerwise:practice:{EXERCISE}"


@pytest.mark.parametrize("record", [{"code": 12345, "hints": 300000, "failures": "many", "passed": "yes"},
                                    {"code": {"a": 1}, "hints": -1, "failures": 1.5, "passed": 1}],
                         ids=["out of range", "wrong types"])
def test_a_stored_record_of_the_wrong_types_or_range_reads_as_a_fresh_start(watched, site, record):
    # The review's F12: a non-string code left the exercise static, and 300,000 hints froze the tab for minutes
    page = watched.page
    page.goto(site.url + exercise_page(site, EXERCISE))
    page.evaluate(STORE, [KEY, record])
    exercise = open_exercise(page, site, EXERCISE)
    assert editor_code(exercise) == get(EXERCISE).STARTER
    assert exercise.locator(".lw-exercise__hints li").count() == 0
    assert exercise.locator(".lw-exercise__hint").text_content() == f"Hint 1 of {len(get(EXERCISE).HINTS)}"
    assert exercise.locator(".lw-exercise__state").text_content() == "not passed yet"


def test_with_storage_full_the_learner_is_told_can_download_the_code_and_keeps_it_in_the_tab(watched, site):
    # The review's F6: with storage full nothing was saved and nothing said so; after leaving, the code was gone
    page = watched.page
    exercise = open_exercise(page, site, EXERCISE)
    page.evaluate("""() => {
        for (const size of [1 << 20, 1 << 10, 1]) {
            try { for (let n = 0; ; n++) localStorage.setItem(`fill-${size}-${n}`, 'x'.repeat(size)); } catch (e) {}
        }
    }""")
    typed = "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    return x  # kept in this tab"
    type_code(page, exercise, typed)
    note = exercise.locator(".lw-exercise__unsaved")
    expect(note).to_contain_text("could not save your work")
    assert page.evaluate(STORED, KEY) is None
    with page.expect_download() as download:
        note.locator("button").click()
    assert download.value.suggested_filename == f"{EXERCISE}.py"
    assert Path(download.value.path()).read_text(encoding="utf-8") == typed
    instant_go(page, site, "")
    page.go_back()
    page.wait_for_function("document.querySelector('article[data-lw-practice]')")
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-content").wait_for()
    assert editor_code(exercise) == typed


def test_a_tab_with_older_state_never_overwrites_another_tabs_pass_or_code_without_asking(watched, site):
    # The review's F7: a pass in tab A, a line typed in tab B: B's draft replaced A's pass and passing code
    tab_b = watched.page
    exercise = open_exercise(tab_b, site, EXERCISE)
    tab_a = watched.context.new_page()
    tab_a.goto(site.url + exercise_page(site, EXERCISE))
    passing = get(EXERCISE).SOLUTION
    tab_a.evaluate(STORE, [KEY, {"code": passing, "hints": 1, "failures": 2, "passed": True}])  # what A's pass stores
    expect(exercise.locator(".lw-exercise__state")).to_have_text("passed")  # B heard of it
    exercise.locator(".cm-content").click()
    tab_b.keyboard.press("Control+End")
    tab_b.keyboard.type("  # B's draft")
    status = exercise.locator(".lw-exercise__status")
    expect(status).to_contain_text("Another tab saved other code for this exercise.")
    tab_b.wait_for_timeout(600)  # past the 300 ms after which typing is written
    assert tab_a.evaluate(STORED, KEY) == {"code": passing, "hints": 1, "failures": 2, "passed": True}
    assert exercise.locator(".lw-exercise__hints li").count() == 1
    exercise.locator(".lw-exercise__our-code").click()
    assert tab_a.evaluate(STORED, KEY) == {"code": editor_code(exercise), "hints": 1, "failures": 2, "passed": True}
    assert editor_code(exercise).endswith("# B's draft")
    exercise.locator(".lw-exercise__reset").click()  # the starter, then A's code asked for again
    tab_a.evaluate(STORE, [KEY, {"code": passing, "hints": 1, "failures": 2, "passed": True}])
    exercise.locator(".lw-exercise__their-code").click()
    assert editor_code(exercise) == passing


def test_a_knowledge_check_answer_is_kept_and_counted(watched, site):
    page = watched.page
    page.goto(site.url + exercise_page(site, EXERCISE))
    first = page.locator(".lw-question").first
    page.wait_for_function(PRACTICE_SET_UP)  # the boxes are the build's; the script connects them to storage
    total = page.locator(".lw-question").count()
    assert total >= 1
    assert first.locator("details.question > summary").text_content() == "Show the explanation"
    assert first.locator(".lw-question__text").text_content().strip()  # the question stays readable above the box
    assert f"Knowledge check 0/{total} answered" in page.locator(".lw-progress").text_content()
    first.locator(".lw-question__answer").click()
    page.keyboard.type("(-1, 1)")
    page.wait_for_function(f"document.querySelector('.lw-progress').textContent.includes('1/{total} answered')")
    page.reload()
    page.wait_for_function(PRACTICE_SET_UP)
    assert page.locator(".lw-question__answer").first.input_value() == "(-1, 1)"
    assert f"Knowledge check 1/{total} answered" in page.locator(".lw-progress").text_content()


def test_without_the_engine_run_says_plainly_that_it_needs_it(watched, site):
    page = watched.page
    watched.context.route("**/practice/worker.js", lambda route: route.abort())
    exercise = open_exercise(page, site, EXERCISE)
    status = run_and_wait(page, exercise)
    assert status.startswith("Running the tests needs the live engine, which could not load here")
    assert exercise.locator(".lw-exercise__statement").is_visible()
    assert editor_code(exercise) == get(EXERCISE).STARTER


def test_the_practice_page_lists_every_exercise_with_a_link(watched, site):
    page = watched.page
    page.goto(site.url + "practice/")
    rows = page.locator(".lw-practice-index tr[data-exercise]")
    rows.first.wait_for()
    placed = {html.parent.name for html in site.root.rglob("index.html")
              if 'class="lw-exercise"' in html.read_text(encoding="utf-8")}
    assert rows.count() >= 2 * len(placed)  # at least two exercises per page that has any
    page.wait_for_function("document.querySelector('.lw-practice-index__summary').textContent.includes('you passed 0')")
    assert set(rows.locator(".lw-practice-index__state").all_text_contents()) == {"not started"}
    # Instant navigation to the exercise (the lazy editor once stayed unmade on this path): the editor is made and
    # takes typing.
    link = rows.filter(has=page.locator(f'a[href$="#exercise-{EXERCISE}"]')).locator("a")
    page.evaluate("window.__lwSameDocument = true")  # gone if the click loads the page anew
    scroll_to_and_click(page, link)
    exercise = page.locator(f'#exercise-{EXERCISE}')
    exercise.locator(".cm-content").wait_for()
    assert page.evaluate("window.__lwSameDocument === true"), "the link loaded the page anew"
    exercise.locator(".cm-line").last.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("pass")
    assert editor_code(exercise).endswith("pass")


# ----- live: NumPy in Pyodide (PYODIDE_DIST) -----

def layernorm_rows(x, gamma, beta, ddof):
    """LayerNorm of each row written out here, independently of the engine, formatted as the feedback shows it."""
    x = np.asarray(x, dtype=float)
    mean = x.sum(axis=1, keepdims=True) / x.shape[1]
    var = ((x - mean) ** 2).sum(axis=1, keepdims=True) / (x.shape[1] - ddof)
    return [[f"{v:.4f}" for v in row] for row in gamma * (x - mean) / np.sqrt(var + 1e-5) + beta]


@pytest.mark.live
def test_a_correct_solution_passes_and_counts(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    total = int(page.locator("h2#practice .lw-practice-count").get_attribute("data-total"))
    type_code(page, exercise, get(EXERCISE).SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    assert exercise.locator(".lw-feedback__message").text_content().startswith("Passed: all")
    assert exercise.locator(".lw-exercise__state").text_content() == "passed"
    assert page.locator(".lw-progress").text_content().startswith(f"Practice 1/{total}")
    assert page.locator("h2#practice .lw-practice-count").text_content() == f"1/{total}"
    exercise.locator(".lw-exercise__solution-button").click()  # offered after a pass, in the editor's highlighting
    assert exercise.locator(".lw-exercise__solution .cm-content .tok-keyword").first.text_content() == "def"
    page.goto(live.url + "practice/")
    row = page.locator(f'.lw-practice-index tr[data-exercise="{EXERCISE}"]')
    page.wait_for_function("document.querySelector('.lw-practice-index__summary').textContent.includes('you passed 1')")
    assert row.locator(".lw-practice-index__state").text_content() == "✓ passed"


@pytest.mark.live
def test_a_known_mistake_shows_its_hint_and_the_wrong_entries_marked(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    module = get(EXERCISE)
    unbiased = next(m for m in module.MISTAKES if m.name == "unbiased variance")
    type_code(page, exercise, unbiased.source(module.SOLUTION))
    run_and_wait(page, exercise)
    feedback = exercise.locator(".lw-exercise__feedback")
    assert feedback.locator(".lw-feedback__hint").text_content() == f"Hint: {unbiased.hint}"
    assert "is wrong in 8 of 8 entries" in feedback.locator(".lw-feedback__message").text_content()
    x, gamma, beta = [[1, 2, 3, 4], [2, -2, 0, 4]], 2.0, 1.0  # the case worked by hand in the exercise
    expected = matrix_cells(feedback.locator('.lw-feedback__matrix[data-role="expected"]'))
    got = matrix_cells(feedback.locator('.lw-feedback__matrix[data-role="got"]'))
    assert [[t for t, _ in row] for row in expected] == layernorm_rows(x, gamma, beta, ddof=0)
    assert [[t for t, _ in row] for row in got] == layernorm_rows(x, gamma, beta, ddof=1)
    assert all(wrong for row in expected + got for _, wrong in row)
    assert "boxed with a dashed border" in feedback.locator(".lw-feedback__legend").text_content()

    # One wrong entry: only it is marked, in both matrices, and a screen reader hears which.
    one_off = module.SOLUTION.replace("    return gamma * x_hat + beta", "    y = gamma * x_hat + beta\n"
                                      "    y[..., 0, 1] += 1\n    return y")
    type_code(page, exercise, one_off)
    run_and_wait(page, exercise)
    for role in ("expected", "got"):
        marks = [[wrong for _, wrong in row] for row in matrix_cells(feedback.locator(f'[data-role="{role}"]'))]
        assert marks == [[False, True, False, False], [False] * 4]
    assert feedback.locator(".lw-wrong .lw-visually-hidden").first.text_content() == " (differs)"
    assert feedback.locator(".lw-feedback__hint").count() == 0  # no known mistake matches this one

    solution_button = exercise.locator(".lw-exercise__solution-button")
    assert solution_button.is_hidden()  # two failed runs
    run_and_wait(page, exercise)
    assert solution_button.is_visible()  # offered after the third
    solution_button.click()
    shown = exercise.locator(".lw-exercise__solution .cm-content .cm-line").all_text_contents()
    assert "\n".join(shown) == module.SOLUTION


@pytest.mark.live
def test_an_exception_shows_its_type_message_and_line_in_the_learners_code(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    type_code(page, exercise, "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    mean = x.mean(axis=-1)\n"
                              "    return (x - mu) * gamma + beta")
    run_and_wait(page, exercise)
    feedback = exercise.locator(".lw-exercise__feedback")
    assert feedback.locator(".lw-feedback__error").text_content() == "NameError: name 'mu' is not defined"
    assert feedback.locator(".lw-feedback__line").text_content() == "Line 3 of your code: return (x - mu) * gamma + beta"


def edit_widget_cell(page, widget, name, row, col, text):
    """Type into one input cell of a widget and wait for its recomputed result."""
    cell = widget.locator(f'.lw-cell[data-input="{name}"][data-row="{row}"][data-col="{col}"]')
    page.evaluate("el => { window.__rendered = false; "
                  "el.addEventListener('layerwise:rendered', () => { window.__rendered = true; }); }",
                  widget.element_handle())
    cell.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    # Typed at a person's pace, an early keystroke's answer ("2" of "2.5") can be shown before the last one lands:
    # done is a render with nothing in flight and nothing edited since the last send, so it answers the final cells.
    page.wait_for_function("el => { const w = Layerwise.widgets().find(w => w.el === el); "
                           "return window.__rendered && !w.inFlight && !w.dirty; }", arg=widget.element_handle())


@pytest.mark.live
def test_an_endless_loop_is_stopped_the_next_run_works_and_widgets_keep_working(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    widget = page.locator('.lw-widget[data-kind="layernorm"]').first
    widget.scroll_into_view_if_needed()
    assert wait_for_engine(page)["state"] == "ready"
    # Sabotage the engine as seen from the practice worker, then hang: neither may reach the widget.
    type_code(page, exercise, "import engine.norms\nengine.norms.layernorm_forward = None\n\n"
                              "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    while True: pass")
    status = run_and_wait(page, exercise, timeout_ms=(RUN_LIMIT_S + 60) * 1000)  # + a cold start
    assert status.startswith(f"Stopped after {RUN_LIMIT_S} s: your code was still running")
    assert exercise.locator(".lw-exercise__feedback").inner_text() == ""  # one line, nothing else
    assert page.evaluate("Layerwise.practice.engine.worker") is None  # terminated

    edit_widget_cell(page, widget, "x", 0, 0, "5")
    values = page.evaluate("Layerwise.widgets().find(w => w.el.dataset.kind === 'layernorm').values")
    expected = next(b for b in run("layernorm", values)["blocks"] if b["name"] == "y")["cells"]
    shown = widget.locator('.lw-output[data-name="y"] tbody tr').evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))")
    assert shown == expected
    assert page.evaluate("Layerwise.engine.starts") == 1  # the widgets' worker was never touched

    type_code(page, exercise, get(EXERCISE).SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    assert page.evaluate("Layerwise.practice.engine.starts") == 2  # a fresh worker for the next run


def test_reset_can_be_undone_by_its_button_and_by_the_editors_undo(watched, site):
    page = watched.page
    exercise = open_exercise(page, site, EXERCISE)
    mine = "def layernorm_forward(x, gamma, beta, eps=1e-5):\nreturn x"
    type_code(page, exercise, mine)
    typed = editor_code(exercise)
    exercise.locator(".lw-exercise__reset").click()  # at once: the reset must not join the typing's undo step
    assert editor_code(exercise) == get(EXERCISE).STARTER
    exercise.locator(".lw-exercise__undo").click()  # the status line offers it
    assert editor_code(exercise) == typed
    assert exercise.locator(".lw-exercise__status").text_content() == "Your code is back."
    exercise.locator(".lw-exercise__reset").click()
    exercise.locator(".cm-content").click()
    page.keyboard.press("Control+z")  # the reset is one step of the editor's own history
    assert editor_code(exercise) == typed


@pytest.mark.live
def test_reload_restores_code_and_progress_without_running_and_reset_brings_the_starter_back(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    solution = get(EXERCISE).SOLUTION
    type_code(page, exercise, solution)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    page.wait_for_timeout(500)  # the editor writes storage at most every 300 ms
    page.reload()
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-content").wait_for()
    assert editor_code(exercise) == solution.rstrip("\n")
    assert exercise.locator(".lw-exercise__state").text_content() == "passed"
    assert page.locator(".lw-progress").text_content().startswith("Practice 1/")
    # The exercise is in view again, so its worker starts (a reader who returns to it will run it), but nothing runs
    page.wait_for_function("Layerwise.practice.engine.state === 'ready'")
    two_frames(page)
    assert exercise.locator(".lw-exercise__feedback").inner_text() == ""
    assert "Passed" not in exercise.locator(".lw-exercise__status").text_content()

    exercise.locator(".lw-exercise__reset").click()
    starter = get(EXERCISE).STARTER
    assert editor_code(exercise) == starter
    page.reload()
    exercise.scroll_into_view_if_needed()
    exercise.locator(".cm-content").wait_for()
    assert editor_code(exercise) == starter
    assert exercise.locator(".lw-exercise__state").text_content() == "passed"  # a pass stays a pass


# The review's F2: learner code answering its own grade request with a pass, then posting a `failed`
FORGING = """import js
from pyodide.ffi import to_js
ok = '{"passed": true, "checks": [], "failure": null, "error": null, "output": "", "figure": null}'
for i in range(1, 300):
    js.postMessage(to_js({"type": "result", "id": i, "json": ok}, dict_converter=js.Object.fromEntries))
js.postMessage(to_js({"type": "failed", "reason": "forged"}, dict_converter=js.Object.fromEntries))
def layernorm_forward(x, gamma, beta, eps=1e-5):
    return None
"""


@pytest.mark.live
def test_learner_code_cannot_answer_for_the_grader_and_its_error_message_is_cut(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    type_code(page, exercise, FORGING)
    assert run_and_wait(page, exercise) == "Not yet: the first check that failed is below."
    assert exercise.locator(".lw-exercise__state").text_content() == "not passed yet"
    assert page.evaluate(f"JSON.parse(localStorage.getItem('layerwise:practice:{EXERCISE}')).passed") is False
    # the review's F13: an exception whose message is a million characters
    type_code(page, exercise, "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    raise ValueError('x' * 10**6)")
    assert run_and_wait(page, exercise) == "Not yet: the first check that failed is below."
    error = exercise.locator(".lw-feedback__error").text_content()
    assert error.startswith("ValueError: xxx")
    assert len(error) < 2_100
    type_code(page, exercise, get(EXERCISE).SOLUTION)  # the forged `failed` left the engine usable
    assert run_and_wait(page, exercise) == "Passed. Well done."


# The adversary's SVG (shared/reviews/2026-12-04-adversary.md, F1): an XHTML iframe whose document runs in the site's
# origin, a <style> that restyles the page, an event attribute and a link, around one line that may stay
ATTACK_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" style="position:fixed;inset:0">'
              '<style>body { outline: 9px solid red }</style>'
              '<x:iframe xmlns:x="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;parent.alert(1)&lt;/script&gt;">'
              '</x:iframe><a href="javascript:alert(2)"><text x="1" y="5">link</text></a>'
              '<polyline points="0,0 9,9" stroke="red" onclick="alert(3)"/></svg>')
WHAT_THE_ATTACK_ADDED = """root => [...root.querySelectorAll('*')].filter(el => ['iframe', 'style', 'a', 'script']
    .includes(el.localName) || el.namespaceURI !== 'http://www.w3.org/2000/svg' || el.hasAttribute('style')
    || [...el.attributes].some(a => /^on|href/.test(a.name))).map(el => el.outerHTML)"""


def test_the_lab_figure_keeps_only_drawing_elements_of_untrusted_svg(watched, site):
    page = watched.page
    page.goto(site.url + exercise_page(site, "residual-lab"))
    page.wait_for_function(PRACTICE_SET_UP)
    kept = page.evaluate("""async ([url, svg, added]) => {
        const { drawingOnly } = await import(url);
        const drawn = drawingOnly(svg);
        document.querySelector('.lw-exercise__feedback').append(drawn);
        await new Promise(r => setTimeout(r, 100));  // an iframe's srcdoc would have run by now
        return { added: eval(added)(drawn), kept: [...drawn.querySelectorAll('*')].map(el => el.localName),
                 outline: getComputedStyle(document.body).outlineStyle, html: drawingOnly('<p>not a drawing</p>'),
                 text: drawingOnly(12) };
    }""", [site.url + "assets/layerwise/practice/figure.bundle.js", ATTACK_SVG, WHAT_THE_ATTACK_ADDED])
    assert kept["added"] == [] and kept["outline"] == "none"
    assert kept["kept"] == ["text", "polyline"]  # the drawing stays; a link's text is kept as text
    assert kept["html"] is None and kept["text"] is None
    assert page.evaluate("document.querySelectorAll('iframe').length") == 0


@pytest.mark.live
def test_the_lab_draws_its_figure_after_a_pass_and_none_of_an_svg_the_learners_code_made(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, "residual-lab")
    type_code(page, exercise, get("residual-lab").SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    figure = exercise.locator(".lw-feedback__figure svg")
    assert figure.get_attribute("role") == "img"
    assert figure.locator("polyline").count() == 2 and figure.locator("text").count() > 2  # both curves, labelled
    # The learner's code replaces the function that draws the figure, in the Python that draws it (the review's F1)
    attack = ("import engine.exercises.residual_lab as _lab\n"
              f"_lab.line_chart = lambda *a, **k: {ATTACK_SVG!r}\n")
    type_code(page, exercise, attack + get("residual-lab").SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    figure.locator("polyline").wait_for()
    assert figure.evaluate(WHAT_THE_ATTACK_ADDED) == []
    assert page.evaluate("document.querySelectorAll('iframe').length") == 0
    assert page.evaluate("getComputedStyle(document.body).outlineStyle") == "none"


def test_a_phone_is_not_told_of_ctrl_enter_and_statement_code_keeps_its_tokens_whole(watched_phone, site):
    page = watched_phone.page
    exercise = open_exercise(page, site, EXERCISE)
    # the page holds every reader's note and CSS shows one: what is rendered is what the reader is told
    note = exercise.locator(".lw-exercise__note").inner_text()
    assert "Run tests checks your code here" in note and "Ctrl+Enter" not in note
    # every inline code span of the statement breaks, if at all, between its tokens: no line ends inside "1e-5"
    cut = exercise.evaluate("""el => [...el.querySelectorAll('.lw-exercise__statement code')].filter(code => {
        const range = document.createRange();
        range.selectNodeContents(code);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        return lines.size > 1 && !/\\s/.test(code.textContent.trim());
    }).map(code => code.textContent)""")
    assert cut == []


READS_MEMORY = '''import sys
def layernorm_forward(x, gamma, beta, eps=1e-5):
    frame = sys._getframe(1)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            for item in (value if isinstance(value, tuple) else (value,)):
                if isinstance(item, np.ndarray) and item.shape == x.shape and item is not x:
                    return item
        frame = frame.f_back
    return x'''
PATCHES_NUMPY = '''import numpy._core.numeric as numeric
numeric.isclose._implementation.__code__ = (lambda a, b, rtol=0, atol=0, equal_nan=False: a == a).__code__
numeric.all = lambda *args, **kwargs: True
np.seterr(all="raise")
def layernorm_forward(x, gamma, beta, eps=1e-5):
    return x'''


@pytest.mark.live
def test_reading_memory_or_patching_numpy_passes_nothing_and_leaves_the_next_verdicts_right(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, EXERCISE)
    module = get(EXERCISE)
    message = exercise.locator(".lw-feedback__message")
    for source in (READS_MEMORY, PATCHES_NUMPY):
        type_code(page, exercise, source)
        assert run_and_wait(page, exercise) != "Passed. Well done."
        assert message.text_content() == "On a 2×4 input worked by hand, y is wrong in 8 of 8 entries."
    unbiased = next(m for m in module.MISTAKES if m.name == "unbiased variance")  # passes if isclose stayed patched
    type_code(page, exercise, unbiased.source(module.SOLUTION))
    run_and_wait(page, exercise)
    assert exercise.locator(".lw-feedback__hint").text_content() == f"Hint: {unbiased.hint}"
    type_code(page, exercise, "# seed: 4242\n" + module.SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    checks = exercise.locator(".lw-feedback__checks li").all_text_contents()
    assert any("8 cases drawn from what the statement allows (seed 4242)" in check for check in checks)
