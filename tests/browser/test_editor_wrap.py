"""The practice editor on a phone: a long line's wrapped part goes on right of the line's own indentation, so the
code's structure stays readable at 375 px; Enter typed on an Android keyboard right after a closing bracket starts a
new line. Neither needs the engine, so it is kept from loading."""
import pytest
from practice_pages import editor_code, open_exercise

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
LONG_LINE = "total = x.mean(axis=-1, keepdims=True) + x.std(axis=-1, keepdims=True) + gamma * beta"

# Where a line's text is on screen: the left edge of its first non-space character, and the left edge of each
# further visual row it wraps onto (a Range's client rects, one per text fragment, grouped by their top).
ROWS = """line => {
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    const first = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.search(/\\S/);
        if (at >= 0) { first.setStart(node, at); first.setEnd(node, at + 1); break; }
    }
    const whole = document.createRange();
    whole.selectNodeContents(line);
    const firstBox = first.getBoundingClientRect();
    const rows = new Map();
    for (const rect of whole.getClientRects()) {
        if (!rect.width) continue;
        const top = Math.round(rect.top);
        rows.set(top, Math.min(rows.get(top) ?? Infinity, rect.left));
    }
    const tops = [...rows.keys()].sort((a, b) => a - b);
    return {text: line.textContent, firstLeft: firstBox.left, charWidth: firstBox.width,
            rowLefts: tops.map(top => rows.get(top))};
}"""


def test_a_wrapped_indented_line_goes_on_right_of_its_own_indentation_on_a_phone(watched, site):
    page = watched.page
    page.set_viewport_size(PHONE)
    watched.context.route("**/layerwise/worker.js", lambda route: route.abort())
    exercise = open_exercise(page, site, "layernorm-forward")
    exercise.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type("def layernorm_forward(x, gamma, beta, eps=1e-5):", delay=15)
    page.keyboard.press("Enter")  # the editor indents the body by four spaces on its own
    page.keyboard.type(LONG_LINE, delay=15)
    line = exercise.locator(".cm-content .cm-line").nth(1)
    measured = line.evaluate(ROWS)
    assert measured["text"] == "    " + LONG_LINE
    assert len(measured["rowLefts"]) >= 2, "the line should wrap at 375 px"
    first_row, *continuations = measured["rowLefts"]
    # the first row starts at column 0 (its indentation is spaces), the text at column 4
    assert first_row < measured["firstLeft"] - 3 * measured["charWidth"]
    for left in continuations:
        assert left > measured["firstLeft"] + measured["charWidth"] / 2, measured


def _android_char(cdp, char):
    """One character as an Android soft keyboard sends it: a keydown and keyup of code 229 ("composing") around the
    text the keyboard inserts."""
    key = {"key": "Unidentified", "windowsVirtualKeyCode": 229, "nativeVirtualKeyCode": 229}
    cdp.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **key})
    cdp.send("Input.insertText", {"text": char})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **key})


def test_enter_right_after_a_closing_bracket_starts_a_new_line_on_an_android_keyboard(watched_android, site):
    page = watched_android.page
    watched_android.context.route("**/layerwise/worker.js", lambda route: route.abort())
    exercise = open_exercise(page, site, "softmax-forward")
    exercise.locator(".cm-content .cm-line").first.tap()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    cdp = watched_android.context.new_cdp_session(page)
    # Gboard's sequence: each character a 229 keydown and the text inserted by the keyboard (the editor closes the
    # bracket on "(" and steps over it on ")"), Enter a real key 13 sent with its "\r"
    for char in "f(x)":
        _android_char(cdp, char)
        page.wait_for_timeout(120)  # a person's pace
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Enter", "code": "Enter", "text": "\r",
                                        "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter",
                                        "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13})
    page.wait_for_timeout(120)
    _android_char(cdp, "y")
    page.wait_for_function("el => el.querySelectorAll('.cm-line').length === 2 && el.textContent.endsWith('y')",
                           arg=exercise.locator(".cm-content").element_handle())
    assert editor_code(exercise) == "f(x)\ny"
