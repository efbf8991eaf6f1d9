"""Plain text for the pages' notebooks: what a live example shows and what the practice feedback says.

A page's widget and its exercise feedback are drawn in the browser from two JSON-safe dicts, the result of
``engine.examples.run`` and of ``engine.exercises.grade``. A notebook prints the same dicts with these two functions,
so its numbers are the strings Python formatted for the page, in the page's order.
"""
from .examples import get_kind


def example_text(result):
    """A widget's outputs in the page's order: group by group under the kind's own title for it (the page's
    heading), every block as ``name: label, shape (r, c)`` and its cells; then the arithmetic, the notes, the gradient
    check and the plots' titles."""
    lines = []
    for group, title in get_kind(result["kind"]).group_titles.items():
        blocks = [block for block in result["blocks"] if block["group"] == group]
        lines.extend([title] if blocks else [])
        for block in blocks:
            shape = "(" + ", ".join(map(str, block["shape"])) + ("," if len(block["shape"]) == 1 else "") + ")"
            lines.append(f"{block['name']}: {block['label']}, shape {shape}")
            lines.extend(_matrix_lines(block["cells"]))
    lines.extend(text for text in [result["arithmetic"], *result["notes"]] if text)
    if result["gradcheck"]:
        lines.append(result["gradcheck"]["text"])
    lines.extend(f"Plot: {plot['title']} (an SVG in result['plots'])" for plot in result["plots"])
    return "\n".join(lines)


def verdict_text(result):
    """A grade's verdict in the order the page shows it: the failure's sentence, the error and its line, the input
    used, expected and got (differing entries marked ``*``), the hint; then the checks and what the code printed."""
    lines = []
    failure, error = result["failure"], result["error"]
    if result["passed"]:
        lines.append(f"Passed: all {len(result['checks'])} checks.")
    elif failure:
        lines.append(failure["message"])
        if error:
            lines.append(f"{error['type']}: {error['message']}")
            if error["line"]:
                lines.append(f"Line {error['line']} of your code: {error['code'] or ''}")
        if failure["inputs"]:
            lines.append("The input it used:")
            for matrix in failure["inputs"]:
                lines.append(matrix["name"])
                lines.extend(_matrix_lines(matrix["cells"]))
        for role in ("expected", "got"):
            if failure[role]:
                lines.append(f"{failure[role]['name']} ({role})")
                lines.extend(_matrix_lines(failure[role]["cells"], failure["wrong"]))
        if failure["wrong"]:
            lines.append("Entries marked * differ.")
        if failure["hint"]:
            lines.append(f"Hint: {failure['hint']}")
    lines.extend(f"{'✓' if check['passed'] else '✗'} {check['name']}" for check in result["checks"])
    if result["output"]:
        lines.extend(["Your code printed:", result["output"].rstrip("\n")])
    if result["figure"]:
        lines.append("Its figure is an SVG in the result's 'figure'.")
    return "\n".join(lines)


def _matrix_lines(cells, wrong=None):
    """Cells (a string, a row or rows of strings) as right-aligned, indented rows; ``wrong`` (rows of bools, as the
    grader's feedback always has) marks entries with *."""
    rows = [[cells]] if isinstance(cells, str) else [cells] if cells and isinstance(cells[0], str) else cells
    texts = [[text + ("*" if wrong and wrong[r][c] else "") for c, text in enumerate(row)] for r, row in enumerate(rows)]
    width = max((len(text) for row in texts for text in row), default=0)
    return ["  " + " ".join(text.rjust(width) for text in row) for row in texts]
