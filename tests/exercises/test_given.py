"""Given functions (an exercise's GIVEN) and outputs that are 0 up to round-off (ROUND_OFF)."""
from engine import exercises

BLOCK_BACKWARD = exercises.get("block-backward").SOLUTION
ATTENTION_BACKWARD = exercises.get("attention-backward").SOLUTION


def test_a_given_function_keeps_its_own_helpers_whatever_the_learner_names_the_same():
    # the given attention_backward calls attention_head by name; the learner's wrong attention_head is not it
    source = "def attention_head(q, k, v):\n    return q\n\n\n" + BLOCK_BACKWARD
    assert exercises.grade("block-backward", source)["passed"]


def test_a_given_function_changed_by_one_grade_is_made_afresh_for_the_next():
    sabotage = ATTENTION_BACKWARD.replace('    """dy, x', '    attention_head_backward.__globals__["np"] = None\n'
                                          '    """dy, x', 1)
    assert not exercises.grade("attention-backward", sabotage)["passed"]
    assert exercises.grade("attention-backward", ATTENTION_BACKWARD)["passed"]


def test_the_given_functions_are_in_the_learners_namespace_by_name():
    source = ("def model_backward(*args):\n    names = (layernorm_forward, layernorm_backward, block_forward, "
              "block_backward)\n    raise NameError([f.__name__ for f in names])\n")
    result = exercises.grade("model-backward", source)
    assert result["error"]["type"] == "NameError"
    assert result["error"]["message"] == ("['layernorm_forward', 'layernorm_backward', 'block_forward', "
                                          "'block_backward']")


def test_dbk_within_round_off_of_the_case_counts_as_expected_and_a_real_difference_does_not():
    # dbk is 0 up to round-off; 1e-11 is below 1e-8 of any case's largest gradient entry (they are of order 1 here)
    nudged = ATTENTION_BACKWARD.replace("return dx, dwq, dbq, dwk, dbk,", "return dx, dwq, dbq, dwk, dbk + 1e-11,")
    assert exercises.grade("attention-backward", nudged, seed=0)["passed"]
    wrong = ATTENTION_BACKWARD.replace("return dx, dwq, dbq, dwk, dbk,", "return dx, dwq, dbq, dwk, dbk + 1e-3,")
    result = exercises.grade("attention-backward", wrong, seed=0)
    assert result["failure"]["message"] == ("On one sequence of 2 positions, d = 2, 2 heads of size 1, every "
                                            "projection the identity, `dbk` is wrong in 2 of 2 entries.")
