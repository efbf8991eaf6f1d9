"""Your GPT (engine.capstone): the learner's functions swapped into the engine's own model, the assembly check that
names the first function differing inside the model, and chunked training for the browser's practice worker."""
import io
import json
import tempfile

import numpy as np
import pytest

from engine import exercises, model, norms, rope
from engine.capstone import CONFIG, PRESETS, SAMPLE, config, layers, rotary, session, settings, structure
from engine.capstone.check import check, checked_params, fixed_batch
from engine.capstone.learner import NotPassing, define, define_all, given
from engine.capstone.swap import swapped, views
from engine.checkpoint import load_checkpoint
from engine.data import build_vocab, encode, load_corpus, split_ids
from engine.errors import ConfigError, LayerwiseError
from engine.generate import generate_text
from engine.train import TrainRun, train, train_step

TEXT = load_corpus()
VOCAB = build_vocab(TEXT)
MODEL = CONFIG.with_overrides(vocab_size=len(VOCAB))
BATCH = fixed_batch(split_ids(encode(TEXT, VOCAB))[0], 8, MODEL.seq_len)
SOLUTIONS = {i: exercises.get(i).SOLUTION for i in layers.exercise_ids()}


def mistake(exercise_id, name):
    exercise = exercises.get(exercise_id)
    return next(m for m in exercise.MISTAKES if m.name == name).source(exercise.SOLUTION)


def learner_function(exercise_id, source):
    """A learner function made without grading it (the check must catch what the exercise's cases do not)."""
    namespace = {"np": np}
    exec(compile(source, "<test>", "exec"), namespace)
    return namespace[exercises.get(exercise_id).FUNCTION]


def test_every_home_holds_the_engine_function_and_gets_it_back():
    assert layers.engine_in_place() == []
    with pytest.raises(RuntimeError), swapped({"layernorm-forward": define("layernorm-forward", SOLUTIONS[
            "layernorm-forward"])}):
        assert model.layernorm_forward is not layers.LAYERS[2].forward
        raise RuntimeError("leave the block early")
    assert layers.engine_in_place() == []


def test_every_mapped_exercise_exists_and_the_rest_are_listed_as_not_called():
    mapped = set(layers.exercise_ids())
    assert mapped <= set(exercises.ids())
    assert mapped | set(layers.NOT_CALLED) == set(exercises.ids())
    assert not mapped & set(layers.NOT_CALLED)


def test_all_engine_assembly_reproduces_engine_train_bit_for_bit():
    run_settings = settings(100, 3e-3, 1)
    expected = train(CONFIG, TEXT, run_settings, out=io.StringIO()).history
    run = TrainRun(CONFIG, TEXT, run_settings)
    with swapped({}):  # every function goes through its adapter, none is replaced
        while not run.done:
            train_step(run)
    assert run.history == expected


def test_session_in_chunks_reproduces_engine_train_and_samples():
    expected = train(CONFIG, TEXT, settings(100, 1e-2, 0), out=io.StringIO()).history
    assert json.loads(session.start_json(json.dumps({"sources": {}, "steps": 100, "lr": 1e-2, "seed": 0})))["ok"]
    losses, val, samples = [], [], []
    while True:
        chunk = json.loads(session.run_json(7, 10_000))  # chunks that do not divide the steps
        assert not (chunk["samples"] and chunk["losses"])  # a sample is a chunk of its own
        losses += chunk["losses"]
        val += [tuple(pair) for pair in chunk["val"]]
        samples += chunk["samples"]
        if chunk["done"]:
            break
    assert losses == expected["train_loss"] and val == expected["val_loss"]
    assert [step for step, _ in samples] == [50, 100] and all(text.startswith(SAMPLE["prompt"]) for _, text in samples)
    params, config, vocab, step = load_checkpoint_bytes(session.checkpoint_bytes())
    assert (config, vocab, step) == (MODEL, VOCAB, 100)


def load_checkpoint_bytes(data):
    with tempfile.NamedTemporaryFile(suffix=".npz") as file:
        file.write(data)
        file.flush()
        return load_checkpoint(file.name)


def test_the_solutions_pass_the_check():
    result = check(define_all(SOLUTIONS), MODEL, BATCH)
    assert result["ok"], result
    assert result["calls"] > len(SOLUTIONS)


def test_unbiased_variance_is_named_with_its_block():
    functions = {"layernorm-forward": learner_function("layernorm-forward",
                                                       mistake("layernorm-forward", "unbiased variance"))}
    result = check(functions, MODEL, BATCH)
    culprit = result["culprit"]
    assert not result["ok"]
    assert culprit["function"] == "layernorm_forward"
    assert culprit["where"] == "block 0 (parameters b0.ln1_g, b0.ln1_b)"  # the first norm the model runs
    assert culprit["shapes"] == "x (8, 16, 32), gamma (32,), beta (32,)"
    assert culprit["largest"] > 1e-3


def test_plus_equals_with_repeated_ids_is_named_outside_the_blocks():
    functions = {i: define(i, SOLUTIONS[i]) for i in ("layernorm-forward", "layernorm-backward")}
    functions["embedding-backward"] = learner_function("embedding-backward",
                                                       exercises.get("embedding-backward").STARTER)
    culprit = check(functions, MODEL, BATCH)["culprit"]
    assert culprit["function"] == "embedding_backward"
    assert culprit["where"] == "outside the blocks (parameters tok_emb)"
    assert culprit["output"] == "dtable"


def test_a_function_right_on_2d_but_wrong_on_b_t_d_is_caught():
    source = SOLUTIONS["layernorm-forward"].replace("axis=-1", "axis=1")  # the last axis only when x is 2-D
    two_d = np.random.default_rng(0).normal(size=(3, 5))
    gamma, beta = np.ones(5), np.zeros(5)
    wrong = learner_function("layernorm-forward", source)
    np.testing.assert_allclose(wrong(two_d, gamma, beta), exercises.get("layernorm-forward").reference(
        two_d, gamma, beta), rtol=1e-12)
    culprit = check({"layernorm-forward": wrong}, MODEL, BATCH)["culprit"]
    assert (culprit["function"], culprit["where"]) == ("layernorm_forward", "block 0 (parameters b0.ln1_g, b0.ln1_b)")


def test_a_backward_that_raises_is_named_with_its_block_and_shapes():
    source = SOLUTIONS["softmax-backward"].replace("    p = softmax(x)", "    if dp.ndim == 4:\n        raise "
                                                   "ValueError('no heads here')\n    p = softmax(x)")
    result = check({"softmax-backward": learner_function("softmax-backward", source)}, MODEL, BATCH)
    assert not result["ok"]
    assert result["culprit"]["problem"] == ("your softmax_backward raised ValueError: no heads here in block 1, "
                                            "given dp (8, 4, 16, 16), x (8, 4, 16, 16)")  # backward: last block first


def test_a_raise_mid_training_stops_the_run_naming_function_and_step():
    source = SOLUTIONS["gelu-forward"].replace("def gelu(x):", "calls = [0]\n\n\ndef gelu(x):\n    calls[0] += 1\n"
                                               "    if calls[0] > 30:\n        raise FloatingPointError('too hot')")
    assert json.loads(session.start_json(json.dumps({"sources": {"gelu-forward": source}, "steps": 100, "lr": 3e-3,
                                                     "seed": 0})))["ok"]
    chunk = json.loads(session.run_json(100, 60_000))
    # grading ran it in a namespace of its own; training calls gelu once per block, twice a step: call 31 is in
    # step 16's first block
    assert chunk["problem"] == ("your gelu raised FloatingPointError: too hot in block 0, given x (8, 16, 128) "
                                "at step 16")
    assert chunk["step"] == 15 and len(chunk["losses"]) == 15


def test_code_that_no_longer_passes_is_refused_with_its_reason():
    with pytest.raises(NotPassing, match="your layernorm_forward does not pass its exercise now"):
        define("layernorm-forward", mistake("layernorm-forward", "unbiased variance"))
    answer = json.loads(session.check_json(json.dumps({"sources": {"softmax-forward": "def softmax(x):\n    return "
                                                                                  "x\n"}})))
    assert answer["ok"] is False and answer["problem"].startswith("your softmax does not pass its exercise now")


def test_settings_outside_the_offered_ones_are_refused():
    with pytest.raises(ConfigError, match="Build your GPT: steps must be one of 100, 200, 1000, got 150"):
        settings(150, 3e-3, 0)


COMPOSITIONS = ("attention-head-backward", "attention-forward", "attention-backward", "block-forward",
                "block-backward", "model-backward")
# Where a wrong function is met first: forwards in block 0 (the forward's first block), backwards in block 1 (the
# backward's first), the model's backward outside the blocks.
FIRST_MET = {"attention-head-backward": "block 1", "attention-forward": "block 0", "attention-backward": "block 1",
             "block-forward": "block 0", "block-backward": "block 1", "model-backward": "outside the blocks"}


def composed(exercise_id, source):
    """A composition's function made as Build your GPT makes it (its given names call the model), ungraded."""
    namespace = {"np": np, **given(exercises.get(exercise_id))}
    exec(compile(source, "<test>", "exec"), namespace)
    return namespace[exercises.get(exercise_id).FUNCTION]


# GPTConfig's switches: each alone, and all at once with one key/value head for the four query heads
SWITCHES = ({}, {"norm": "rmsnorm"}, {"positions": "rope"}, {"ffn": "swiglu"}, {"kv_heads": 2}, {"kv_heads": 1},
            {"norm": "rmsnorm", "positions": "rope", "ffn": "swiglu", "kv_heads": 1})
# Solutions whose order of operations differs from the engine's, so that a loss moves in its last bits: RMSNorm's
# divides gamma * x by the root where the engine multiplies x by the reciprocal root, SwiGLU's silu is
# g / (1 + exp(-g)) where the engine's sigmoid is exp(-logaddexp(0, -g)) (no overflow). Both are what the exercise
# asks a learner to write; the runs agree to round-off, compared to 1e-12 relative.
ROUND_OFF = {"norm": "rmsnorm", "ffn": "swiglu"}
SWITCHED = {"rmsnorm-forward", "rmsnorm-backward", "rope-forward", "swiglu-forward", "gqa-forward"}


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda switches: "-".join(map(str, switches.values())) or "gpt2")
def test_every_solution_swapped_in_reproduces_engine_train_bit_for_bit(switches):
    # the solutions follow the engine's order of operations (x * x * x, a reciprocal multiplied, rows flattened for
    # a linear layer's products, the gradients' dict order), so not one bit of a loss moves in 100 steps
    config = CONFIG.with_overrides(**switches)
    run_settings = settings(100, 3e-3, 1)
    expected = train(config, TEXT, run_settings, out=io.StringIO()).history
    run = TrainRun(config, TEXT, run_settings)
    with swapped(define_all(layers.called(SOLUTIONS, config))) as context:
        context.name_params(run.params)
        while not run.done:
            train_step(run)
    switched = SWITCHED & set(layers.exercise_ids(config))  # the switches' own functions this model calls
    assert switched <= set(context.counts) and bool(switched) == bool(switches)  # yours ran
    if set(switches.items()) & set(ROUND_OFF.items()):
        np.testing.assert_allclose(run.history["train_loss"], expected["train_loss"], rtol=1e-12, atol=0)
        np.testing.assert_allclose(run.history["val_loss"], expected["val_loss"], rtol=1e-12, atol=0)
    else:
        assert run.history == expected


@pytest.mark.parametrize("exercise_id,name", [(i, m.name) for i in COMPOSITIONS for m in exercises.get(i).MISTAKES])
def test_every_known_mistake_of_a_composition_is_named_with_its_block(exercise_id, name):
    exercise = exercises.get(exercise_id)
    result = check({exercise_id: composed(exercise_id, mistake(exercise_id, name))}, MODEL, BATCH)
    culprit = result["culprit"]
    assert not result["ok"]
    assert culprit["function"] == exercise.FUNCTION
    assert culprit["where"].startswith(FIRST_MET[exercise_id])
    assert culprit["problem"] == f"{culprit['output']} differs from the engine's by up to {culprit['largest']:.3g}"


def test_a_block_backward_that_assigns_instead_of_adding_is_named_as_the_block_over_right_leaves():
    leaves = ("layernorm-forward", "layernorm-backward", "linear-forward", "linear-backward", "attention-head",
              "attention-head-backward", "softmax-forward", "softmax-backward", "attention-forward",
              "attention-backward", "block-forward", "gelu-forward", "gelu-backward")
    functions = define_all({i: SOLUTIONS[i] for i in leaves})
    functions["block-backward"] = composed("block-backward", mistake(
        "block-backward", "the MLP's skip gradient assigned instead of added"))
    result = check(functions, MODEL, BATCH)
    culprit = result["culprit"]
    assert (culprit["function"], culprit["output"]) == ("block_backward", "dx")
    assert culprit["where"].startswith("block 1 (parameters b1.ln1_g, b1.ln1_b, b1.wq,")
    assert culprit["problem"] == f"dx differs from the engine's by up to {culprit['largest']:.3g}"


def test_a_right_block_over_a_wrong_leaf_names_the_leaf():
    functions = {"block-forward": define("block-forward", SOLUTIONS["block-forward"]),
                 "layernorm-forward": learner_function("layernorm-forward",
                                                       mistake("layernorm-forward", "unbiased variance"))}
    culprit = check(functions, MODEL, BATCH)["culprit"]
    assert (culprit["function"], culprit["where"]) == ("layernorm_forward", "block 0 (parameters b0.ln1_g, b0.ln1_b)")


def test_a_learners_model_backward_hands_each_block_its_index():
    # the model's backward slices stacked parameters for block_backward; the wrong block is still found as block 1
    functions = {"model-backward": define("model-backward", SOLUTIONS["model-backward"]),
                 "block-backward": composed("block-backward", mistake(
                     "block-backward", "the attention's skip gradient forgotten"))}
    culprit = check(functions, MODEL, BATCH)["culprit"]
    assert culprit["function"] == "block_backward"
    assert culprit["where"] == "block 1"  # its arguments are slices of the stacked arrays, not the model's own


def test_the_views_call_the_engine_outside_a_swap():
    rng = np.random.default_rng(0)
    x, gamma, beta = rng.normal(size=(2, 3, 4)), rng.normal(size=4), rng.normal(size=4)
    view = views()
    np.testing.assert_array_equal(view["layernorm_forward"](x, gamma, beta), norms.layernorm_forward(x, gamma, beta)[0])
    dx, dgamma, dbeta = view["layernorm_backward"](x, x, gamma, beta)
    expected = norms.layernorm_backward(x, norms.layernorm_forward(x, gamma, beta)[1])
    for got, want in zip((dx, dgamma, dbeta), expected):
        np.testing.assert_array_equal(got, want)


def test_the_check_runs_on_gains_and_biases_that_differ():
    # at initialisation ln1 and ln2 are both (1, 0): taking one for the other would compute the engine's numbers
    params = checked_params(MODEL)
    assert not np.array_equal(params["b0.ln1_g"], params["b0.ln2_g"])
    assert not np.array_equal(params["b0.bk"], params["b0.bv"])


def test_the_worker_checks_a_passed_composition_as_the_page_sends_it():
    sources = {i: SOLUTIONS[i] for i in ("block-forward", "block-backward", "model-backward", "layernorm-backward")}
    answer = json.loads(session.check_json(json.dumps({"sources": sources})))
    assert answer["ok"] is True and answer["culprit"] is None


def test_your_optimiser_and_sampler_train_and_sample_as_the_engine_bit_for_bit():
    expected = train(CONFIG, TEXT, settings(100, 3e-3, 0), out=io.StringIO()).history
    sources = {i: SOLUTIONS[i] for i in ("adamw-step", "sample-next")}
    assert json.loads(session.start_json(json.dumps({"sources": sources, "steps": 100, "lr": 3e-3, "seed": 0})))["ok"]
    losses, samples = [], []
    while True:
        chunk = json.loads(session.run_json(100, 60_000))
        losses += chunk["losses"]
        samples += chunk["samples"]
        if chunk["done"]:
            break
    assert losses == expected["train_loss"]
    engine_run = TrainRun(CONFIG, TEXT, settings(100, 3e-3, 0))
    while not engine_run.done:
        train_step(engine_run)
    assert samples[-1] == [100, session._sample(engine_run)]  # the engine's sampler on the engine's model


def test_weight_decay_on_every_parameter_changes_the_run():
    wrong = {"adamw-step": learner_function("adamw-step", mistake("adamw-step", "weight decay on every parameter"))}
    run_settings = settings(100, 3e-3, 0)
    engine_run, your_run = TrainRun(CONFIG, TEXT, run_settings), TrainRun(CONFIG, TEXT, run_settings)
    train_step(engine_run)
    with swapped(wrong):
        train_step(your_run)
    assert np.array_equal(your_run.params["b0.wq"], engine_run.params["b0.wq"])  # matrices: as the engine
    assert not np.array_equal(your_run.params["b0.ln1_g"], engine_run.params["b0.ln1_g"])  # a gain decayed too


def generated(budget_ms=60_000, **request):
    answer = json.loads(session.generate_start_json(json.dumps({"prompt": "Shall I ", "tokens": 40, "temperature": 0.8,
                                                                "top_k": 10, "top_p": 0.9, "seed": 3, **request})))
    if not answer["ok"]:
        return answer
    text, calls = [], {}
    while True:
        chunk = json.loads(session.generate_next_json(budget_ms))
        text.append(chunk["text"])
        for exercise_id, count in chunk["calls"].items():
            calls[exercise_id] = calls.get(exercise_id, 0) + count
        if chunk["done"]:
            return {**answer, "text": "".join(text), "problem": chunk["problem"], "calls": calls}


def test_generate_streams_your_sampler_and_decode_step_as_the_engine_generates():
    session._current.clear()  # as in a fresh worker
    assert json.loads(session.generate_start_json(json.dumps({"prompt": "x"})))["problem"] == ("there is no model "
                                                                                              "yet: train first")
    sources = {i: SOLUTIONS[i] for i in ("sample-next", "kv-decode-step")}
    assert json.loads(session.start_json(json.dumps({"sources": sources, "steps": 100, "lr": 1e-2, "seed": 0})))["ok"]
    json.loads(session.run_json(60, 60_000))
    run = session._current["run"]
    expected = generate_text(run.params, run.config, run.vocab, "Shall I ", 40, seed=3, temperature=0.8, top_k=10,
                             top_p=0.9)[len("Shall I "):]
    whole = generated()
    assert whole["cached"] and whole["text"] == expected and len(expected) == 40  # 40 > seq_len: the window slides
    # one draw per character; a decode step per block and position, the cache filled again after every slide
    assert whole["calls"]["sample-next"] == 40 and whole["calls"]["kv-decode-step"] > 40 * CONFIG.num_layers
    assert generated(budget_ms=0)["text"] == expected  # one character a chunk
    refused = generated(prompt="\u00e9")
    assert refused["ok"] is False and "\u00e9" in refused["problem"]


def test_a_sampler_that_raises_while_generating_is_named():
    source = SOLUTIONS["sample-next"].replace("    z = logits / temperature", "    if top_p == 0.55:\n        raise "
                                              "ValueError('half')\n    z = logits / temperature")
    assert json.loads(session.start_json(json.dumps({"sources": {"sample-next": source}, "steps": 100, "lr": 1e-2,
                                                     "seed": 0})))["ok"]
    json.loads(session.run_json(5, 60_000))
    result = generated(top_p=0.55)
    assert result["problem"] == ("your sample_next raised ValueError: half outside the blocks, given logits "
                                 f"({len(set(TEXT))},), rng "
                                 "(a random generator), temperature 0.8, top_k 10, top_p 0.55 while "
                                 "generating")


def checked(functions):
    from engine.capstone.check_loop import check_loop
    return check_loop(functions, MODEL, BATCH)


def test_the_loop_functions_solutions_agree_and_each_known_mistake_is_named():
    loop = ("adamw-step", "sample-next", "kv-decode-step")
    assert checked({i: define(i, SOLUTIONS[i]) for i in loop}) is None
    decay = checked({"adamw-step": learner_function("adamw-step", mistake("adamw-step",
                                                                          "weight decay on every parameter"))})
    assert (decay["function"], decay["where"]) == ("adamw_step", "the optimiser (parameter b0.ln1_g)")  # first 1-D
    assert decay["problem"].startswith('params["b0.ln1_g"] differs from the engine\'s by up to ')
    for name in ("no bias correction", "eps inside the square root", "decay of the updated weight"):
        assert checked({"adamw-step": learner_function("adamw-step", mistake("adamw-step", name))}), name
    # ("top-k keeps exactly k positions" differs only where logits tie, which a trained model's never do)
    for name in ("temperature multiplies", "top-p stops before reaching p", "the most likely id instead of a draw",
                 "a uniform draw"):
        culprit = checked({"sample-next": learner_function("sample-next", mistake("sample-next", name))})
        assert culprit and culprit["function"] == "sample_next", name
    for name in ("scaled by sqrt(d)", "a causal mask on the one new row", "the new key put first"):
        culprit = checked({"kv-decode-step": learner_function("kv-decode-step", mistake("kv-decode-step", name))})
        assert culprit and culprit["where"] == "generation with the KV cache (every block)", name


def test_the_check_json_names_your_optimiser_after_the_model_agrees():
    source = mistake("adamw-step", "no bias correction")
    answer = json.loads(session.check_json(json.dumps({"sources": {"adamw-step": source}})))
    assert answer["ok"] is False and answer["problem"].startswith("your adamw_step does not pass")  # graded first
    functions = {"adamw-step": learner_function("adamw-step", source)}
    result = check(functions, MODEL, BATCH)
    assert result["ok"]  # the loss and gradients never see the optimiser
    assert checked(functions)["function"] == "adamw_step"


def test_every_function_of_the_registry_has_its_place_in_the_models_structure():
    from engine.capstone import structure
    assert structure.unplaced() == []
    rows = [row for _, _, part in structure.parts(MODEL) for row in part]  # GPT-2's model: all but the switches'
    switches = {"RMSNorm", "SwiGLU feed-forward", "rotary positions", "rotary positions, backward",
                "key/value heads shared by query heads"}
    gpt2 = [entry for entry in (*layers.LAYERS, *layers.PLAIN) if entry.name not in switches]
    expected = [getattr(e, "exercise_forward", getattr(e, "exercise", None)) for e in gpt2] + [
        e.exercise_backward for e in gpt2 if getattr(e, "backward", None)]
    assert sorted(map(str, (row.exercise for row in rows))) == sorted(map(str, expected))  # each once, none lost
    # every configuration's: the compositions written for GPT-2's model twice, as the exercise's and the engine's
    union = [(row.role, row.exercise) for _, _, part in structure.parts() for row in part]
    assert ("pre-LN block, forward", "block-forward") in union and ("pre-LN block, forward", None) in union
    assert ("LayerNorm, forward", None) not in union  # no configuration calls the engine's LayerNorm without yours
    placed = {row.exercise: key for key, _, part in structure.parts() for row in part}
    assert (placed["softmax-forward"], placed["layernorm-backward"], placed["adamw-step"], placed["sample-next"],
            placed["mlp-forward"]) == ("attention", "backward", "optimiser", "sampler", "mlp")


MODERN = config("modern").with_overrides(vocab_size=len(VOCAB))


def test_the_rope_backward_made_from_your_forward_turns_back():
    # a pair (3, 4) at positions 0 and 1 of a head of size 2 (one pair, 1 radian a position): by hand, the backward
    # turns it by -1 radian
    yours = define("rope-forward", SOLUTIONS["rope-forward"])
    dy = np.array([[3.0, 4.0], [3.0, 4.0]])
    turned = [[3.0, 4.0], [3 * np.cos(1) + 4 * np.sin(1), -3 * np.sin(1) + 4 * np.cos(1)]]
    np.testing.assert_allclose(rotary.rotate_back(yours, None, dy, rope.rope_tables(np.arange(2), 2)), turned,
                               rtol=1e-15)
    # the engine's pairing (2i, 2i + 1) and its rope_backward, bit for bit, at positions 0..T-1 and later ones (a
    # decode step's)
    rng = np.random.default_rng(0)
    for positions in (np.arange(16), np.array([7]), np.array([3, 4, 5])):
        tables = rope.rope_tables(positions, 8)
        x = rng.normal(size=(2, 4, len(positions), 8))
        assert np.array_equal(rotary.rotate(yours, None, x, tables), rope.rope_forward(x, tables))
        assert np.array_equal(rotary.rotate_back(yours, None, x, tables), rope.rope_backward(x, tables))
    with pytest.raises(LayerwiseError, match="rope_forward: the model's rotary tables are not those of base 10000"):
        rotary.rotate(yours, None, x, rope.rope_tables(positions, 8, base=500.0))


# Where a wrong function of the modern model is met first: forwards in block 0, RMSNorm's backward at the final norm
MODERN_FIRST_MET = {"rope-forward": "block 0", "swiglu-forward": "block 0", "rmsnorm-forward": "block 0",
                    "gqa-forward": "block 0", "rmsnorm-backward": "outside the blocks"}


@pytest.mark.parametrize("exercise_id,name", [(i, m.name) for i in MODERN_FIRST_MET
                                              for m in exercises.get(i).MISTAKES])
def test_every_known_mistake_of_the_modern_switches_is_named_with_its_block(exercise_id, name):
    # among them RoPE's positions counted from 1 and its channels paired as halves, SwiGLU's gate and value swapped
    result = check({exercise_id: learner_function(exercise_id, mistake(exercise_id, name))}, MODERN, BATCH)
    culprit = result["culprit"]
    assert not result["ok"]
    assert culprit["function"] == exercises.get(exercise_id).FUNCTION
    assert culprit["where"].startswith(MODERN_FIRST_MET[exercise_id])
    # turned from position 1, every query and key moves by the same angle and the scores see only offsets: the
    # model's numbers are the engine's, and the check says so while naming the call that is not
    unseen = culprit["problem"].endswith("still agree with the engine's, which cannot see it")
    assert unseen == (name == "positions counted from 1"), culprit["problem"]


def test_the_modern_solutions_pass_the_check_and_the_others_are_left_out():
    functions = define_all(SOLUTIONS)  # GPT-2's compositions too: the modern model does not call them
    result = check(functions, MODERN, BATCH)
    assert result["ok"], result
    answer = json.loads(session.check_json(json.dumps({"sources": {
        "rope-forward": SOLUTIONS["rope-forward"], "layernorm-forward": "not even Python"}, "preset": "modern"})))
    assert answer["ok"] is True  # LayerNorm is not called by the modern model, so not graded either


def test_a_preset_trains_in_chunks_as_engine_train_with_your_rope():
    expected = train(MODERN, TEXT, settings(100, 3e-3, 0), out=io.StringIO()).history
    request = {"sources": {"rope-forward": SOLUTIONS["rope-forward"]}, "steps": 100, "lr": 3e-3, "seed": 0,
               "preset": "modern"}
    assert json.loads(session.start_json(json.dumps(request)))["ok"]
    losses = []
    while not (chunk := json.loads(session.run_json(30, 60_000)))["done"]:
        losses += chunk["losses"]
    assert losses == expected["train_loss"]  # the rotation is computed in the engine's order: bit for bit
    assert load_checkpoint_bytes(session.checkpoint_bytes())[1] == MODERN


def test_an_unknown_preset_or_a_setting_it_does_not_offer_is_refused_by_name():
    with pytest.raises(ConfigError, match="Build your GPT: unknown configuration 'llama'; the page offers gpt2, "
                                          "modern,"):
        config("llama")
    answer = json.loads(session.start_json(json.dumps({"sources": {}, "steps": 100, "lr": 3e-3, "seed": 0,
                                                       "preset": "llama"})))
    assert answer["ok"] is False and "'llama'" in answer["problem"]
    with pytest.raises(ConfigError, match="lr must be one of 0.003 with the modern configuration, got 0.01"):
        settings(100, 1e-2, 0, "modern")


def test_the_page_lists_the_functions_a_configuration_calls():
    def listed(name):
        return {row.exercise for _, _, rows in structure.parts(config(name)) for row in rows}

    switched = SWITCHED
    gpt2_only = {"layernorm-forward", "layernorm-backward", "gelu-forward", "mlp-forward", "token-position",
                 "attention-forward", "block-forward", "model-backward", "kv-decode-step"}
    assert switched <= listed("modern") and not gpt2_only & listed("modern")
    assert gpt2_only <= listed("gpt2") and not switched & listed("gpt2")
    assert listed("rope") & switched == {"rope-forward"} and listed("mqa") & switched == {"gqa-forward"}
    rows = [row.role for _, _, part in structure.parts(config("rope")) for row in part if row.exercise == "rope-forward"]
    assert rows == ["rotary positions", "rotary positions, backward"]  # the backward is yours too
    assert layers.not_called(config("modern"))["layernorm-forward"] == "the model uses RMSNorm"
    assert layers.not_called(config("gpt2"))["rope-forward"] == "the model uses learned positions"
    assert set(PRESETS) >= {"gpt2", "modern", "rmsnorm", "rope", "swiglu"}
