"""Cases drawn from each exercise's DOMAIN: what they reach, that a Run can be replayed, and that the wrong programs a
learner can write to pass the hand-worked cases alone (a table of their answers, a buffer sized to them, a default
parameter hard-coded, contiguous memory or fewer axes assumed) pass those cases and fail the drawn ones.

The wrong programs are made per exercise from its hand cases and its SOLUTION, so every exercise gets them, new ones
too; where a kind does not apply to an exercise (no parameter with a default, no array input) it is left out.
"""
import ast

import numpy as np
import pytest

from engine import exercises
from engine.exercises import _domain
from engine.exercises._expected import expected
from engine.exercises._spec import parameters

IDS = exercises.ids()
SEEDS = (0, 1, 2)


def hand_cases_only(monkeypatch, exercise_id, source):
    """The grade of ``source`` on the exercise's hand-worked cases alone (its DOMAIN left out)."""
    monkeypatch.setattr(exercises.get(exercise_id), "DOMAIN", None)
    result = exercises.grade(exercise_id, source)
    monkeypatch.undo()
    return result


def test_every_exercise_declares_a_domain():
    assert [i for i in IDS if not isinstance(getattr(exercises.get(i), "DOMAIN", None), _domain.Domain)] == []


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_solution_passes_other_runs_and_a_run_can_be_replayed(exercise_id):
    exercise = exercises.get(exercise_id)
    for seed in (10, 11, 12):
        result = exercises.grade(exercise_id, exercise.SOLUTION, seed)
        assert result["passed"] and result["seed"] == seed, result["failure"]
        assert result["checks"][-1]["name"] == f"8 cases drawn from what the statement allows (seed {seed})"
    labels = [drawn.case.label for drawn in _domain.drawn_cases(exercise.DOMAIN, 10)]
    assert labels == [drawn.case.label for drawn in _domain.drawn_cases(exercise.DOMAIN, 10)]
    assert labels != [drawn.case.label for drawn in _domain.drawn_cases(exercise.DOMAIN, 11)]
    replayed = exercises.grade(exercise_id, "# seed: 10\n" + exercise.MISTAKES[0].source(exercise.SOLUTION)
                               if exercise.MISTAKES else exercise.STARTER)
    assert replayed["seed"] == 10


@pytest.mark.parametrize("exercise_id", IDS)
def test_one_run_reaches_every_size_at_both_ends(exercise_id):
    domain = exercises.get(exercise_id).DOMAIN
    drawn = _domain.drawn_cases(domain, 0)
    for name, allowed in domain.sizes.items():
        seen = {case.sizes[name] for case in drawn}
        assert min(allowed) in seen and max(allowed) in seen, (name, seen)


def test_fresh_runs_draw_fresh_cases_and_a_failure_names_its_seed():
    source = exercises.get("layernorm-forward").SOLUTION.replace("eps=1e-5):", "eps=1e-5):\n    eps = 1e-5")
    seeds = {exercises.grade("layernorm-forward", source)["seed"] for _ in range(4)}
    assert len(seeds) > 1
    result = exercises.grade("layernorm-forward", source, 7)
    assert result["failure"]["message"].startswith("On drawn case ")
    assert result["failure"]["message"].endswith("Put `# seed: 7` in your code to draw the same cases again.")
    assert result["checks"][-1] == {"name": "8 cases drawn from what the statement allows (seed 7)",
                                    "passed": False}


def test_a_failing_drawn_case_is_shrunk_to_a_small_one():
    # right only while the last axis has at most 40 entries: the smallest failure has 41 to 80 of them
    source = ("def softmax(x):\n    assert x.shape[-1] <= 40, 'a buffer of 40'\n"
              "    e = np.exp(x - x.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n")
    for seed in SEEDS:
        message = exercises.grade("softmax-forward", source, seed)["failure"]["message"]
        shape = ast.literal_eval(message.split("`x` ")[1].split(")")[0] + ")")
        assert 40 < shape[-1] <= 80 and all(size == 1 for size in shape[:-1]), message


def _literal(value):
    return repr(np.asarray(value).tolist()), str(np.asarray(value).dtype)


def _plain_inputs(exercise):
    """Whether the hand cases' inputs are arrays, numbers and shapes only: the generic programs below are not built
    for dicts of arrays (adamw-step, kv-decode-step) or a generator whose draws the answer depends on (sample-next)."""
    return not any(isinstance(v, (dict, np.random.Generator)) or v is None
                   for case in exercise.CASES for v in case.make().values())


def memorised(exercise):
    """A program that returns the hand cases' answers from a table keyed by their inputs (None where an input is a
    generator or a function) and the first answer otherwise."""
    if not _plain_inputs(exercise) and exercise.FUNCTION != "gpt2_init":
        return None
    table = []
    for case in exercise.CASES:
        inputs = case.make()
        key = [None if callable(v) or isinstance(v, np.random.Generator) else _literal(v)[0] for v in inputs.values()]
        table.append((len(inputs), key, [_literal(out) for out in expected(exercise, case)]))
    rows = ",\n    ".join(f"({n}, [{', '.join(k or 'None' for k in key)}], {out!r})" for n, key, out in table)
    single = len(exercise.OUTPUTS) == 1
    return exercise.SOLUTION + f'''
inf, nan = float("inf"), float("nan")
TABLE = [
    {rows},
]

def {exercise.FUNCTION}(*args):
    def answer(outputs):
        arrays = tuple(np.array(eval(text), dtype=dtype) for text, dtype in outputs)
        return arrays[0] if {single} else arrays
    for count, key, outputs in TABLE:
        if count == len(args) and all(k is None or (np.shape(a) == np.shape(k) and np.array_equal(a, k, equal_nan=True))
                                      for a, k in zip(args, key)):
            return answer(outputs)
    return answer(TABLE[0][2])
'''


def _dims(value):
    if isinstance(value, np.ndarray):
        return value.shape
    return value if isinstance(value, tuple) else ()


def fixed_buffer(exercise):
    """The solution behind a buffer just large enough for every size of the hand cases (None without sizes)."""
    sizes = [d for case in exercise.CASES for value in case.make().values() for d in _dims(value)]
    if exercise.FUNCTION == "causal_mask":
        sizes = [case.make()["T"] for case in exercise.CASES]
    if not sizes:
        return None
    return _wrapped(exercise, f'''
    for a in args:
        dims = a.shape if isinstance(a, np.ndarray) else a if isinstance(a, tuple) else ()
        if {exercise.FUNCTION == "causal_mask"}:
            dims = (a,)
        if any(d > {max(sizes)} for d in dims):
            raise IndexError("index {max(sizes)} is out of bounds for a buffer of {max(sizes)}")
    return _solution(*args)
''')


def hard_coded_default(exercise):
    """The solution with its defaulted parameters always at their defaults (None without such parameters)."""
    node = next(n for n in ast.parse(exercise.SOLUTION).body
                if isinstance(n, ast.FunctionDef) and n.name == exercise.FUNCTION)
    required = len(node.args.args) - len(node.args.defaults)
    if not node.args.defaults:
        return None
    return _wrapped(exercise, f"    return _solution(*args[:{required}])\n")


def contiguous_only(exercise):
    """The solution reading its array inputs' memory as if contiguous (None for a domain without strided views or
    float arrays)."""
    floats = [v for item in _domain.drawn_cases(exercise.DOMAIN, 0) for v in item.case.make().values()
              if isinstance(v, np.ndarray) and v.dtype.kind == "f" and v.ndim]
    if not (exercise.DOMAIN.strided and floats and _plain_inputs(exercise)):
        return None
    return _wrapped(exercise, '''
    args = [np.ndarray(a.shape, a.dtype, buffer=a) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
            for a in args]
    return _solution(*args)
''')


def fewer_axes(exercise):
    """The solution refusing more axes than the hand cases' inputs have (None when the domain draws no more)."""
    hand = max((v.ndim for case in exercise.CASES for v in case.make().values() if isinstance(v, np.ndarray)),
               default=0)
    drawn = max((v.ndim for seed in SEEDS for item in _domain.drawn_cases(exercise.DOMAIN, seed)
                 for v in item.case.make().values() if isinstance(v, np.ndarray)), default=0)
    if drawn <= hand:
        return None
    return _wrapped(exercise, f'''
    if any(isinstance(a, np.ndarray) and a.ndim > {hand} for a in args):
        raise ValueError("expected at most {hand} axes")
    return _solution(*args)
''')


def _wrapped(exercise, body):
    return (exercise.SOLUTION + f"\n_solution = {exercise.FUNCTION}\n\n\ndef {exercise.FUNCTION}(*args):\n"
            + body.lstrip("\n"))


KINDS = {"memorised table": memorised, "fixed buffer": fixed_buffer, "default hard-coded": hard_coded_default,
         "contiguous memory assumed": contiguous_only, "fewer axes assumed": fewer_axes}
PROGRAMS = [(exercise_id, kind) for exercise_id in IDS for kind, make in KINDS.items()
            if make(exercises.get(exercise_id)) is not None]


@pytest.mark.parametrize(("exercise_id", "kind"), PROGRAMS, ids=[f"{i}:{k}" for i, k in PROGRAMS])
def test_a_program_fitted_to_the_hand_cases_fails_the_drawn_ones(monkeypatch, exercise_id, kind):
    exercise = exercises.get(exercise_id)
    source = KINDS[kind](exercise)
    hand = hand_cases_only(monkeypatch, exercise_id, source)
    if kind == "default hard-coded" and not hand["passed"]:
        return  # a hand case already sets the parameter: the hand cases catch it (the drawn ones would too)
    assert hand["passed"], hand["failure"]
    for seed in SEEDS:
        result = exercises.grade(exercise_id, source, seed)
        assert not result["passed"], seed
        assert result["failure"]["message"].endswith(f"Put `# seed: {seed}` in your code to draw the same cases "
                                                     f"again.")


def test_every_exercise_meets_a_memorised_table():
    left_out = [i for i in IDS if (i, "memorised table") not in PROGRAMS]
    assert left_out == [i for i in IDS if i in ("adamw-step", "kv-decode-step", "sample-next")]


# Wrong programs written by hand, of the kinds a drawn domain must catch: a stabilisation missing or misplaced, an
# unstable formula, a guard that moves the result. The hand cases catch some; all must fail.
SPECIFIC = {
    ("softmax-forward", "stabilised by the row's mean, not its maximum"): '''
def softmax(x):
    finite = np.where(np.isfinite(x), x, np.nan)
    e = np.exp(x - np.nanmean(finite, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
''',
    ("layernorm-forward", "the variance as E[x^2] - E[x]^2"): '''
def layernorm_forward(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - mean * mean
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
''',
    ("cross-entropy-forward", "the maximum of the whole array subtracted"): '''
def cross_entropy(logits, targets):
    z = logits - logits.max()
    lse = np.log(np.exp(z).sum(axis=-1))
    picked = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0]
    return float(np.mean(lse - picked))
''',
    ("attention-head", "the maximum taken before the mask"): '''
def attention_head(q, k, v):
    T, hs = q.shape[-2], q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(hs)
    e = np.exp(s - s.max(axis=-1, keepdims=True)) * np.tril(np.ones((T, T)))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
''',
    ("softmax-backward", "softmax without the maximum subtracted"): '''
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def softmax_backward(dp, x):
    e = np.exp(x)
    p = e / e.sum(axis=-1, keepdims=True)
    return p * (dp - (dp * p).sum(axis=-1, keepdims=True))
''',
    ("gelu-forward", "tanh written with exp"): '''
def gelu(x):
    u = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
    t = (np.exp(2 * u) - 1) / (np.exp(2 * u) + 1)
    return 0.5 * x * (1 + t)
''',
    ("clip-gradients", "a guard of 1e-8 against a zero norm"): '''
def clip_gradients(g1, g2, max_norm):
    norm = np.sqrt(np.sum(g1 ** 2) + np.sum(g2 ** 2))
    scale = min(1.0, max_norm / (norm + 1e-8))
    return g1 * scale, g2 * scale
''',
    ("embedding-backward", "rows written once per id, repeats lost"): '''
def embedding_forward(ids, table):
    return table[ids]

def embedding_backward(dout, ids, table):
    dtable = np.zeros_like(table)
    dtable[ids.reshape(-1)] += dout.reshape(-1, table.shape[1])
    return dtable
''',
    ("causal-mask", "a float mask"): '''
def causal_mask(T):
    return np.tril(np.ones((T, T)))
''',
}


@pytest.mark.parametrize(("exercise_id", "name"), SPECIFIC, ids=[f"{i}:{n}" for i, n in SPECIFIC])
def test_a_wrong_program_written_by_hand_fails(exercise_id, name):
    for seed in SEEDS:
        assert not exercises.grade(exercise_id, SPECIFIC[exercise_id, name], seed)["passed"], seed


@pytest.mark.parametrize("exercise_id", ["softmax-forward", "layernorm-forward", "clip-gradients"])
def test_some_wrong_programs_are_caught_only_by_the_drawn_cases(monkeypatch, exercise_id):
    for (exercise, name), source in SPECIFIC.items():
        if exercise == exercise_id:
            assert hand_cases_only(monkeypatch, exercise_id, source)["passed"], name
