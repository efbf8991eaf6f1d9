"""engine.notebook: what a page's notebook prints for a live example and for a grade, in the page's order."""
from engine import examples
from engine.exercises import get, grade
from engine.notebook import example_text, verdict_text


def test_an_example_prints_every_block_with_its_cells_then_its_sentences():
    result = examples.run("layernorm", examples.get_kind("layernorm").defaults())
    lines = example_text(result).splitlines()
    y = lines.index("y: y = gamma * x_hat + beta, shape (2, 4)")
    assert lines[y + 1].split() == result["blocks"][3]["cells"][0] == ["-1.6833", "0.1056", "1.8944", "3.6833"]
    assert lines[:2] == ["Intermediate steps", "mean: mean of each row, shape (2,)"]
    assert lines[2].split() == ["2.5000", "25.0000"]  # a vector is one row
    assert lines.index("Forward") < y < lines.index("Backward") < lines.index("dx: dx, shape (2, 4)")
    assert lines[-3:] == [result["arithmetic"], *result["notes"], result["gradcheck"]["text"]]
    assert len(lines) == sum(1 + (len(b["cells"]) if b["cells"] and isinstance(b["cells"][0], list) else 1)
                             for b in result["blocks"]) + 3 + 3  # three group titles


def test_a_failed_grade_prints_the_sentence_the_matrices_with_wrong_entries_marked_and_the_checks():
    exercise = get("layernorm-forward")
    result = grade("layernorm-forward", exercise.SOLUTION.replace("var =", "var = 1 +", 1))
    text = verdict_text(result)
    lines = text.splitlines()
    assert lines[0] == result["failure"]["message"]
    assert lines[1] == "The input it used:"
    assert lines[lines.index("y (expected)") + 1].split() == [c + "*" for c in result["failure"]["expected"]["cells"][0]]
    assert "Entries marked * differ." in lines
    assert lines[-2:] == ["✓ your code runs and defines `layernorm_forward`", "✗ a 2×4 input worked by hand"]


def test_an_error_prints_its_type_and_line_and_what_the_code_printed():
    source = "def layernorm_forward(x, gamma, beta, eps=1e-5):\n    print('here')\n    return 1 / 0\n"
    lines = verdict_text(grade("layernorm-forward", source)).splitlines()
    assert lines[1:3] == ["ZeroDivisionError: division by zero", "Line 3 of your code: return 1 / 0"]
    assert lines[-2:] == ["Your code printed:", "here"]


def test_a_pass_says_so_with_every_check():
    result = grade("layernorm-forward", get("layernorm-forward").SOLUTION)
    lines = verdict_text(result).splitlines()
    assert lines[0] == f"Passed: all {len(result['checks'])} checks."
    assert lines[1:] == [f"✓ {check['name']}" for check in result["checks"]]


def test_an_example_titles_its_groups_as_its_page_does():
    # The training kind renames "forward" to what its page shows; the notebook must say the same, not the default.
    result = examples.run("training", {**examples.get_kind("training").defaults(), "steps": 2, "warmup_steps": 1})
    lines = example_text(result).splitlines()
    assert "Measured along the run" in lines
    assert "Forward" not in lines
