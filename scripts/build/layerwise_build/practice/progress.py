"""What the practice module will show on a page, written by the build so nothing moves when its script runs: the
progress line under the title ("Practice 0/2 · Knowledge check 0/4 answered") and each knowledge-check question's
answer box. The browser (widgets/practice/progress.js, knowledge.js) fills them in place from localStorage.
"""
import re

QUESTION = re.compile(r'<details class="question"( open)?>\s*<summary>(.*?)</summary>', re.S)
DETAILS_TAG = re.compile(r"<(/?)details\b")
TITLE_END = "</h1>"


class MarkupError(ValueError):
    """The page's HTML is not what the theme's Markdown extensions write (a question block that never closes)."""


def _closing_end(html, question):
    """Index just past the ``</details>`` that closes the question block ``question`` (a match; nesting counted)."""
    depth = 0
    for tag in DETAILS_TAG.finditer(html, question.start()):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return html.index(">", tag.end()) + 1
    raise MarkupError(f"the knowledge-check question '{question.group(2).strip()[:60]}' has no closing </details>")


def answer_boxes(html):
    """Each ``??? question`` block becomes: the question as text, a labelled answer box, then the block itself,
    collapsed as "Show the explanation". Returns (html, number of questions)."""
    parts, position, number = [], 0, 0
    for match in QUESTION.finditer(html):
        if match.start() < position:  # inside a question already wrapped (a question in an explanation)
            continue
        number += 1
        end = _closing_end(html, match)
        rest = html[match.end():end]
        parts += [html[position:match.start()],
                  '<div class="lw-question">',
                  f'<p class="lw-question__text">{match.group(2).strip()}</p>',
                  f'<label class="lw-question__label" for="lw-answer-{number}">Your answer</label>',
                  f'<textarea class="lw-question__answer" id="lw-answer-{number}" rows="2"></textarea>',
                  f'<details class="question"{match.group(1) or ""}><summary>Show the explanation</summary>',
                  rest, "</div>"]
        position = end
    parts.append(html[position:])
    return "".join(parts), number


def progress_text(passed, exercises, answered, questions):
    """The line's words; the same sentence as progress.js writes."""
    parts = []
    if exercises:
        parts.append(f"Practice {passed}/{exercises}")
    if questions:
        parts.append(f"Knowledge check {answered}/{questions} answered")
    return " · ".join(parts)


def with_progress_line(html, exercises, questions):
    """The progress line right after the page's title (none on a page without exercises or questions)."""
    text = progress_text(0, exercises, 0, questions)
    if not text or TITLE_END not in html:
        return html
    return html.replace(TITLE_END, f'{TITLE_END}<p class="lw-progress" aria-live="polite">{text}</p>', 1)
