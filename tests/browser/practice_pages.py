"""Helpers for the practice browser tests: find an exercise, type into its editor the way a person does."""
import pytest


def exercise_page(site, exercise_id):
    """Site-relative path of the page holding ``exercise_id``, or skip."""
    for html in sorted(site.root.rglob("index.html")):  # the exercise's anchor: other pages only link to it
        if f'id="exercise-{exercise_id}"' in html.read_text(encoding="utf-8"):
            return html.parent.relative_to(site.root).as_posix() + "/"
    pytest.skip(f"no page shows the exercise {exercise_id}")


def open_exercise(page, site, exercise_id):
    """Open the exercise's page and wait for its editor; returns the exercise's locator."""
    page.goto(site.url + exercise_page(site, exercise_id))
    exercise = page.locator(f'.lw-exercise[data-exercise="{exercise_id}"]')
    exercise.scroll_into_view_if_needed()  # as a reader gets there: the editor is made when it nears the screen
    exercise.locator(".cm-content").wait_for()
    return exercise


def type_code(page, exercise, source):
    """Replace the editor's code by typing ``source`` line by line. After Enter the editor indents on its own;
    Shift+Home selects that indentation, so the line's own indentation replaces it (as a person would retype it)."""
    exercise.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    for number, line in enumerate(source.rstrip("\n").split("\n")):
        if number:
            page.keyboard.press("Enter")
            page.keyboard.press("Shift+Home")
        page.keyboard.type(line)


def editor_code(exercise):
    return exercise.evaluate("el => [...el.querySelectorAll('.cm-content .cm-line')].map(l => l.textContent).join('\\n')")


def run_and_wait(page, exercise, timeout_ms=120_000):
    """Press Ctrl+Enter in the editor and wait until the run ends (a verdict or a stop); returns the status line."""
    exercise.locator(".cm-content").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_function("el => !el.querySelector('.lw-exercise__run').disabled",
                           arg=exercise.element_handle(), timeout=timeout_ms)
    return exercise.locator(".lw-exercise__status").text_content()


def matrix_cells(figure):
    """(texts, wrong flags) of a feedback matrix, row by row; a cell's hidden "(differs)" is not part of its text."""
    return figure.evaluate("""fig => [...fig.querySelectorAll('tr')].map(tr => [...tr.querySelectorAll('td')].map(td =>
        [td.firstChild.textContent, td.classList.contains('lw-wrong')]))""")
