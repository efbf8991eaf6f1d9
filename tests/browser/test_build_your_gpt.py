"""Build your GPT in real Chromium: without JavaScript the grouped list, the engine's curve and its sample; with
PYODIDE_DIST (marked live) a layer, one head's attention backward, a block's backward, AdamW and the sampler
passed in their editors become yours, Check, Train with
Pause / Resume / Stop following the engine's curve, Generate drawing with the learner's sampler, a function raising
mid-run and an endless loop stopped, widgets answering meanwhile.

Five exercises are passed by typing in their editors (tests/browser/practice_pages.py); the functions that raise or
loop mid-run are put in storage directly, as a pass records them, since typing them adds nothing the first test
lacks."""
import json

import pytest
from browser_pages import instant_go, wait_for_engine
from practice_pages import open_exercise, run_and_wait, type_code
from test_practice import edit_widget_cell

from engine import exercises
from engine.__main__ import main
from engine.capstone import CONFIG, DEFAULTS, PRESET_LABELS, PRESETS, SAMPLE, config, layers, structure
from engine.capstone.reference import key
from engine.checkpoint import load_checkpoint
from engine.examples import run

pytestmark = pytest.mark.browser
PAGE = "model/build-your-gpt/"
SETUP_S = 120  # a cold Pyodide start plus grading every source again, on a busy machine


def open_capstone(page, site):
    page.goto(site.url + PAGE)
    page.wait_for_function("window.Layerwise && window.Layerwise.capstone")


def store_passed(page, site, exercise_id, source):
    """What a pass of ``source`` leaves in storage (widgets/practice/storage.js)."""
    page.goto(site.url + PAGE)
    page.evaluate("([id, code]) => localStorage.setItem(`layerwise:practice:${id}`, JSON.stringify({code, hints: 0, "
                  "failures: 0, passed: true}))", [exercise_id, source])


def counting(exercise_id, after, action):
    """The exercise's solution, doing ``action`` from its call number ``after`` on (grading calls it far fewer)."""
    module = exercises.get(exercise_id)
    header = f"def {module.FUNCTION}("
    body = (f"    calls[0] += 1\n    if calls[0] > {after}:\n        {action}\n")
    start = module.SOLUTION.index(header)
    signature_end = module.SOLUTION.index("\n", module.SOLUTION.index('"""', start) + 3) + 1
    return "calls = [0]\n\n\n" + module.SOLUTION[:signature_end] + body + module.SOLUTION[signature_end:]


def page_reference(page, steps, preset="gpt2"):
    """The engine's curve the page carries for ``steps`` and ``preset`` (computed by the CPython engine at build
    time)."""
    data = json.loads(page.locator(".lw-capstone").get_attribute("data-capstone"))
    return data["reference"][key(steps, DEFAULTS["lr"], DEFAULTS["seed"], preset)]["train"]


def click(page, name):
    page.locator(f".lw-capstone__{name}").click()


def wait_state(page, states, timeout_s=SETUP_S):
    page.wait_for_function("states => states.includes(Layerwise.capstone.state)", arg=states, timeout=timeout_s * 1000)
    return page.evaluate("Layerwise.capstone.state")


def status(page):
    return page.locator(".lw-capstone__status").text_content()


def unload_asks(page):
    """Whether leaving the page now (a reload, another site, closing the tab) makes the browser ask first."""
    return page.evaluate("() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); "
                         "return e.defaultPrevented; }")


def test_without_javascript_the_list_the_engine_curve_and_a_sample_are_there(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url + PAGE)
    rows = page.locator(".lw-capstone__function:not([hidden])")  # GPT-2's model: the others' rows are hidden
    assert rows.count() == len(layers.exercise_ids(CONFIG))
    assert page.get_by_label("Configuration").locator("option:checked").text_content() == PRESET_LABELS["gpt2"]
    headings = page.locator(".lw-capstone__part th").all_text_contents()
    assert headings == [heading for _, heading in structure.PARTS]
    assert page.locator(".lw-capstone__count").text_content().startswith("0 of ")
    assert set(rows.locator(".lw-capstone__source").all_text_contents()) == {"the engine's"}
    link = page.locator('.lw-capstone__function[data-exercise="layernorm-forward"] a')
    assert link.get_attribute("href") == "../../layers/layernorm/#exercise-layernorm-forward"
    reference = json.loads(page.locator(".lw-capstone").get_attribute("data-capstone"))["reference"][key(**DEFAULTS)]
    points = page.locator(".lw-capstone__reference").get_attribute("points").split()
    assert len(points) == DEFAULTS["steps"] == len(reference["train"])
    shown = page.locator(".lw-capstone__engine-sample samp").text_content()  # on one line, its breaks written as verse's
    assert shown.replace(" // ", "\n\n").replace(" / ", "\n") == reference["sample"]
    # what good looks like: the engine's own validation loss at the end of the default run, and the trained model's
    expect = page.locator(".lw-capstone__expect").text_content()
    assert f"after {DEFAULTS['steps']} steps" in expect and f"{reference['val'][-1][1]:.4f}" in expect
    assert page.locator(".lw-capstone__expect a").get_attribute("href") == "../inside/"
    assert "need JavaScript and the live engine" in status(page)
    assert all(page.locator(f".lw-capstone__{name}").is_disabled() for name in ("check", "train", "download"))
    context.close()


def test_back_after_instant_navigation_to_a_page_without_practice_the_page_is_set_up_again(watched, site):
    # The review's F4: Home (no practice there), then Back, left Train and Check disabled until a reload
    page = watched.page
    open_capstone(page, site)
    page.evaluate("window.__firstCapstone = Layerwise.capstone")
    instant_go(page, site, "")
    page.go_back()
    page.wait_for_function("""location.pathname.endsWith('/model/build-your-gpt/')
        && document.querySelector('.lw-capstone') && Layerwise.capstone !== window.__firstCapstone""",
                           timeout=10_000)
    assert not page.locator(".lw-capstone__train").is_disabled() and not page.locator(".lw-capstone__check").is_disabled()
    assert "need JavaScript" not in status(page)


def test_the_model_select_and_the_address_choose_the_configuration_an_unknown_one_named(watched, site):
    page = watched.page
    page.goto(site.url + PAGE + "?preset=llama")
    page.wait_for_function("window.Layerwise && window.Layerwise.capstone")
    assert status(page) == ('The address asks for the configuration "llama" (?preset=llama), which this page does '
                            f'not offer (it offers {", ".join(PRESETS)}): showing {PRESET_LABELS["gpt2"]}.')
    assert page.evaluate("Layerwise.capstone.preset") == "gpt2"
    open_capstone(page, site)
    page.get_by_label("Configuration").select_option("modern")  # the select's visible label names it
    shown = page.locator(".lw-capstone__function:not([hidden])").evaluate_all(
        "rows => rows.map(row => row.dataset.exercise)")
    # every exercise the modern model calls, the RoPE one twice (its backward is made from your forward)
    assert sorted(shown) == sorted(layers.exercise_ids(config("modern")) + ["rope-forward"])
    total = page.locator(".lw-capstone__count").get_attribute("data-total")
    assert page.locator(".lw-capstone__count strong").text_content() == f"0 of {total}"
    engine_only = page.locator(".lw-capstone__engine-only:not([hidden])").evaluate_all(
        "rows => rows.map(row => row.dataset.function)")
    # the engine's where no exercise writes it (SwiGLU's backward after your forward), or where the exercise is
    # written for GPT-2's model (a whole block, multi-head attention, the model's own forward and backward)
    assert sorted(engine_only) == sorted(["swiglu_backward", "block_forward", "block_backward", "attention_forward",
                                          "attention_backward", "forward", "backward", "attention_step_forward"])
    assert int(total) == len(shown) + len(engine_only) and page.locator(".lw-capstone__expect-model").text_content() == PRESET_LABELS[
        "modern"]
    assert page.evaluate("Layerwise.capstone.reference") == page_reference(page, DEFAULTS["steps"], "modern")
    others = page.locator('.lw-capstone__others:not([hidden])')
    assert others.get_attribute("data-preset") == "modern" and "the model uses RMSNorm" in others.text_content()
    # settings without the engine's curve for this configuration cannot be picked
    assert page.locator('.lw-capstone__lr option[value="0.01"]').is_disabled()
    page.goto(site.url + PAGE + "?preset=modern")
    page.wait_for_function("window.Layerwise && window.Layerwise.capstone")
    assert page.evaluate("Layerwise.capstone.preset") == "modern"


@pytest.mark.live
def test_the_modern_configuration_trains_your_rope_on_the_engines_curve(live, watched):
    page = watched.page
    exercise = open_exercise(page, live, "rope-forward")
    type_code(page, exercise, exercises.get("rope-forward").SOLUTION)
    assert run_and_wait(page, exercise) == "Passed. Well done."
    page.goto(live.url + PAGE + "?preset=modern")
    page.wait_for_function("window.Layerwise && window.Layerwise.capstone")
    sources = page.evaluate("Layerwise.capstone.sources")
    assert {name for name, source in sources.items() if source == "yours"} == {"rope_forward"}
    assert "layernorm_forward" not in sources and sources["rmsnorm_forward"] == "engine"

    click(page, "check")
    assert wait_state(page, ["idle"]) == "idle"
    assert status(page).startswith("Your 1 function and the engine's agree inside the model"), status(page)
    page.select_option(".lw-capstone__steps", "100")
    click(page, "train")
    assert wait_state(page, ["done", "failed"], timeout_s=SETUP_S + 240) == "done", status(page)
    hook = page.evaluate("({losses: Layerwise.capstone.losses, reference: Layerwise.capstone.reference})")
    expected = page_reference(page, 100, "modern")
    assert hook["reference"] == expected and len(hook["losses"]) == len(expected) == 100
    # Pyodide's NumPy sums in another order than CPython's: the curves agree to round-off, not bit for bit
    assert max(abs(a - b) for a, b in zip(hook["losses"], expected)) < 1e-6

    click(page, "generate")  # the modern model just trained, with your rotation inside
    assert wait_state(page, ["done"]) == "done"
    generated = page.evaluate("Layerwise.capstone.generated")
    assert generated["problem"] is None and generated["calls"]["rope-forward"] > 0, generated
    assert status(page).endswith("without the KV cache (the decode step's exercise is written for GPT-2's "
                                 "attention).")


@pytest.mark.live
def test_passed_exercises_are_yours_checked_trained_with_pause_resume_and_stop_and_generate(live, watched, tmp_path):
    page = watched.page
    # a layer, the transformer's own parts (attention's backward, a block's backward chain), the optimiser, the sampler
    typed = ("layernorm-forward", "attention-head-backward", "block-backward", "adamw-step", "sample-next")
    for exercise_id in typed:
        exercise = open_exercise(page, live, exercise_id)
        type_code(page, exercise, exercises.get(exercise_id).SOLUTION)
        assert run_and_wait(page, exercise) == "Passed. Well done.", exercise_id

    open_capstone(page, live)
    page.evaluate("() => { window.__shifts = 0; new PerformanceObserver((list) => { for (const entry of "
                  "list.getEntries()) if (!entry.hadRecentInput) window.__shifts += entry.value; })"
                  ".observe({type: 'layout-shift', buffered: true}); }")
    sources = page.evaluate("Layerwise.capstone.sources")
    assert {name for name, source in sources.items() if source == "yours"} == {
        "layernorm_forward", "attention_head_backward", "block_backward", "adamw_step", "sample_next"}
    assert sources["attention_step"] == "engine" and set(sources.values()) == {"yours", "engine"}
    total = page.locator(".lw-capstone__count").get_attribute("data-total")
    assert page.locator(".lw-capstone__count strong").text_content() == f"{len(typed)} of {total}"

    click(page, "check")
    assert wait_state(page, ["idle"]) == "idle"
    assert page.evaluate("Layerwise.capstone.check.ok") is True
    assert status(page).startswith(f"Your {len(typed)} functions and the engine's agree inside the model")

    page.select_option(".lw-capstone__steps", "100")
    click(page, "train")
    page.wait_for_function("Layerwise.capstone.step >= 20", timeout=SETUP_S * 1000)
    click(page, "pause")
    wait_state(page, ["paused"])
    page.wait_for_timeout(400)  # a chunk already asked for may still land
    paused_at = page.evaluate("Layerwise.capstone.step")
    page.wait_for_timeout(1000)
    assert page.evaluate("Layerwise.capstone.step") == paused_at
    # one number: the status and the step shown agree, whatever landed after Pause
    assert status(page) == f"Paused after step {paused_at}. Resume goes on from there."
    assert page.locator(".lw-capstone__step").text_content() == f"{paused_at} / 100"
    click(page, "resume")
    page.wait_for_function("Layerwise.capstone.step >= 55", timeout=60_000)
    click(page, "stop")
    assert wait_state(page, ["stopped"]) == "stopped"
    hook = page.evaluate("({losses: Layerwise.capstone.losses, reference: Layerwise.capstone.reference, "
                         "step: Layerwise.capstone.step, samples: Layerwise.capstone.samples})")
    assert len(hook["losses"]) == hook["step"] >= 55
    # every sample whole, in the slot of its step (the newest first), none cut by its box
    slots = page.evaluate("[...document.querySelectorAll('.lw-capstone__sample-slot')].map(li => [li.dataset.step, "
                          "li.querySelector('samp').textContent, li.scrollHeight <= li.clientHeight + 1])")
    longest = max(int(v) for v in page.eval_on_selector_all(".lw-capstone__steps option", "os => os.map(o => o.value)"))
    assert [int(step) for step, _, _ in slots] == list(range(longest, 0, -50))  # every 50 steps of the longest run
    assert slots[-1][1].replace(" // ", "\n\n").replace(" / ", "\n") == hook["samples"][0]
    assert all(whole for _, _, whole in slots)
    expected = page_reference(page, 100)
    assert hook["reference"] == expected
    # Pyodide's NumPy sums in another order than CPython's: the curves agree to round-off, not bit for bit
    assert max(abs(a - b) for a, b in zip(hook["losses"], expected)) < 1e-6
    page.wait_for_timeout(1000)
    assert page.evaluate("Layerwise.capstone.step") == hook["step"]  # stopped stays stopped
    assert page.evaluate("window.__shifts") == 0

    # The review's F5: Home by instant navigation and Back; the worker kept the model, so the page shows it again
    # and Download saves it. Until it is downloaded, leaving the site asks first.
    assert unload_asks(page)
    instant_go(page, live, "")
    page.go_back()
    page.wait_for_function("location.pathname.endsWith('/model/build-your-gpt/') "
                           "&& document.querySelector('.lw-capstone[data-lw-ready]')")
    back = page.evaluate("({state: Layerwise.capstone.state, step: Layerwise.capstone.step, "
                         "losses: Layerwise.capstone.losses})")
    assert back == {"state": "stopped", "step": hook["step"], "losses": hook["losses"]}
    assert page.locator(".lw-capstone__step").text_content() == f"{hook['step']} / 100"
    assert unload_asks(page)

    with page.expect_download() as download:  # the model as trained so far, for the engine's command line
        click(page, "download")
    path = tmp_path / "your-gpt.npz"
    download.value.save_as(path)
    params, config, vocab, step = load_checkpoint(path)
    assert step == hook["step"] and config.vocab_size == len(vocab)
    assert main(["talk", "--checkpoint", str(path), "--prompt", "Call me", "--tokens", "5"]) == 0
    assert not unload_asks(page)

    click(page, "generate")  # the model trained so far, drawn by the sampler typed above
    assert wait_state(page, ["stopped"]) == "stopped"
    generated = page.evaluate("Layerwise.capstone.generated")
    tokens = json.loads(page.locator(".lw-capstone").get_attribute("data-capstone"))["generate"]["tokens"]
    assert generated["problem"] is None and len(generated["text"]) == tokens
    # every character: one draw by your sampler, and your LayerNorm twice per block and once at the end of a forward
    norms = (2 * CONFIG.num_layers + 1) * tokens
    assert generated["calls"] == {"sample-next": tokens, "layernorm-forward": norms} and generated["cached"] is False
    assert status(page).startswith(f"Generated {tokens} characters with your sample_next ({tokens} draws)")
    assert page.locator(".lw-capstone__generated").text_content() == SAMPLE["prompt"] + generated["text"]
    assert page.evaluate("window.__shifts") == 0

    page.locator('.lw-capstone__function[data-exercise="layernorm-forward"] input').check()
    assert page.evaluate("Layerwise.capstone.sources.layernorm_forward") == "engine"


@pytest.mark.live
def test_a_function_raising_mid_run_stops_it_with_its_message_while_widgets_answer(live, watched):
    page = watched.page
    store_passed(page, live, "gelu-forward", counting("gelu-forward", 60, "raise ValueError('gelu gave up')"))
    open_capstone(page, live)
    widget = page.locator('.lw-widget[data-kind="cross_entropy"]').first
    assert wait_for_engine(page)["state"] == "ready"
    click(page, "train")
    page.wait_for_function("Layerwise.capstone.step >= 5", timeout=SETUP_S * 1000)
    widget.scroll_into_view_if_needed()
    edit_widget_cell(page, widget, "logits", 0, 0, "3")  # answered by the widgets' worker while training runs
    values = page.evaluate("Layerwise.widgets().find(w => w.el.dataset.kind === 'cross_entropy').values")
    expected = next(b for b in run("cross_entropy", values)["blocks"] if b["name"] == "dlogits")["cells"]
    shown = widget.locator('.lw-output[data-name="dlogits"] tbody tr').evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))")
    assert shown == expected
    assert wait_state(page, ["failed"]) == "failed"
    # gelu runs once per block (two) in every step and in each of the two validation batches after step 20: calls
    # 1-40 are steps 1-20, 41-44 the validation, 45-60 steps 21-28, so call 61 is in step 29
    assert status(page) == ("Training stopped: your gelu raised ValueError: gelu gave up in block 0, given x (8, 16, "
                            "128) at step 29.")
    assert page.evaluate("Layerwise.capstone.step") == 28


@pytest.mark.live
def test_an_endless_loop_is_stopped_and_the_next_train_works(live, watched):
    page = watched.page
    store_passed(page, live, "softmax-forward", counting("softmax-forward", 40, "while True: pass"))
    open_capstone(page, live)
    page.select_option(".lw-capstone__steps", "100")
    click(page, "train")
    assert wait_state(page, ["failed"]) == "failed"
    message = status(page)
    assert message.startswith("Training stopped: your softmax was still running after 3 s (an endless loop?) at step ")
    assert "in block" in message and "given x (8, 4, 16, 16)" in message
    page.locator('.lw-capstone__function[data-exercise="softmax-forward"] input').check()  # the engine's instead
    click(page, "train")
    page.wait_for_function("Layerwise.capstone.step >= 40", timeout=SETUP_S * 1000)
    click(page, "stop")
    assert wait_state(page, ["stopped"]) == "stopped"
