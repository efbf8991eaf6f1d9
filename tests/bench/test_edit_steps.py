"""An edit's steps, as the benchmark reports them, follow one another and add up to its latency."""
from browserbench.edits import STEPS, steps_of


def test_the_steps_of_an_edit_add_up_to_input_to_dom():
    edit = {"sent": 10.5, "workerStart": 10.75, "workerEnd": 12.0, "received": 18.0}
    steps = steps_of(10.0, 18.75, edit)
    assert list(steps) == list(STEPS)
    assert steps == {"the page handles the keystroke": 0.5, "to the worker": 0.25, "in the worker": 1.25,
                     "back to the page's main thread": 6.0, "answer into the DOM": 0.75}
    assert sum(steps.values()) == 18.75 - 10.0


def test_a_page_that_does_not_time_its_requests_has_no_steps():
    assert steps_of(10.0, 18.75, None) is None
