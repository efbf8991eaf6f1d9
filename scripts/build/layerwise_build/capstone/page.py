"""The HTML of the ```capstone fence: the list of the model's functions (each the engine's until the browser finds
a passed exercise), the training controls, the statistics, the chart with the engine's curve and its sample. Every
box has its final size in the HTML, so the page's script only changes texts and points."""
import json
import re
from html import escape

from .chart import chart_svg

COUNT_TEXT = "functions yours (a function becomes yours when you pass its exercise in this browser)."
STATS = (("step", "Step"), ("loss", "Training loss"), ("val", "Validation loss"), ("speed", "Steps/s"),
         ("elapsed", "Elapsed"), ("remaining", "Remaining"), ("apart", "Apart from the engine's"))
NEEDS = ("Checking and training need JavaScript and the live engine (Python with NumPy, loaded into this tab the "
         "first time you press Check or Train). Without them this page shows the engine's own run: its curve below "
         "and the line its model wrote.")


def _name(function):
    """A function's name that a narrow column wraps after an underscore, never inside a word."""
    return f'<code>{escape(function).replace("_", "_<wbr>")}</code>'


COLUMNS = ("Function", "In the model", "Comes from")


def _cells(part_id, *cells):
    """Data cells tied to their column's header and their part's (a table with a header row inside each part is a
    complex table: screen readers and pa11y need ``headers``, ``scope`` is not enough)."""
    return "".join(f'<td headers="{part_id} lw-capstone-column-{i}">{cell}</td>' for i, cell in enumerate(cells))


def _row(part_id, function, role, exercise_id, link, title, presets, shown):
    """One function's row; ``presets``: the configurations whose model calls it, the row hidden unless ``shown`` (the
    page's default configuration) is one of them (capstone.js shows the chosen configuration's rows)."""
    common = f'data-function="{escape(function)}" data-presets="{escape(" ".join(presets))}"' + (
        "" if shown in presets else " hidden")
    if exercise_id is None:
        return (f'<tr class="lw-capstone__engine-only" {common}>'
                + _cells(part_id, _name(function), escape(role),
                         'the engine\'s <span class="lw-capstone__why">(no exercise writes it)</span>') + '</tr>')
    return (f'<tr class="lw-capstone__function" data-exercise="{escape(exercise_id)}" {common}>'
            + _cells(part_id, _name(function), escape(role),
                     '<span class="lw-capstone__source">the engine\'s</span> '
                     '<label class="lw-capstone__switch"><input type="checkbox" disabled> use the engine\'s</label> '
                     f'<a href="{escape(link)}">{escape(title)}</a>') + '</tr>')


def _part(number, heading, rows, shown):
    part_id = f"lw-capstone-part-{number}"
    body = "".join(_row(part_id, *row, shown) for row in rows) or (
        f'<tr><td colspan="3" headers="{part_id}" class="lw-capstone__why">no exercise writes a function of this '
        'part yet: it runs inside the engine\'s own code</td></tr>')
    return (f'<tbody><tr class="lw-capstone__part"><th colspan="3" scope="colgroup" id="{part_id}">'
            f'{escape(heading)}</th></tr>{body}</tbody>')


def functions_table(parts, engine_only, presets):
    """parts: ``[(heading, rows)]`` in the model's order, a row being (function, role in the model, exercise id or
    None, link to the exercise, exercise title, the presets whose model calls it); engine_only: what stays the
    engine's whatever the learner writes; presets: the configurations' names, the first shown."""
    totals = {preset: sum(preset in row[-1] for _, rows in parts for row in rows) for preset in presets}
    total = totals[presets[0]]
    body = "".join(_part(number, heading, rows, presets[0]) for number, (heading, rows) in enumerate(parts))
    head = "".join(f'<th id="lw-capstone-column-{i}">{name}</th>' for i, name in enumerate(COLUMNS))
    kept = "".join(f"<li>{escape(item)}</li>" for item in engine_only)
    return (f'<p class="lw-capstone__count" data-total="{total}" data-totals="{escape(json.dumps(totals))}">'
            f'<strong>0 of {total}</strong> {COUNT_TEXT}</p>'
            f'<table class="lw-capstone__functions"><thead><tr>{head}</tr></thead>{body}</table>'
            f'<p>Whatever you write, these stay the engine\'s:</p><ul class="lw-capstone__engine-kept">{kept}</ul>')


def not_called_lists(items):
    """{preset: the <li> items of the exercises its model does not call}: one list each, the first shown."""
    first = next(iter(items))
    return '<p>Exercises this model does not call, and why:</p>' + "".join(
        f'<ul class="lw-capstone__others" data-preset="{escape(preset)}"{"" if preset == first else " hidden"}>'
        f'{lis}</ul>' for preset, lis in items.items())


def _preset_select(presets):
    """The configuration's control, before Train: one option per preset, its label the option's text."""
    options = "".join(f'<option value="{escape(name)}"{" selected" if i == 0 else ""}>{escape(preset["label"])}'
                      '</option>' for i, (name, preset) in enumerate(presets.items()))
    return f'<label>Configuration <select class="lw-capstone__preset" disabled>{options}</select></label>'


def _select(name, label, values, default):
    options = "".join(f'<option value="{value}"{" selected" if value == default else ""}>{value}</option>'
                      for value in values)
    return f'<label>{label} <select class="lw-capstone__{name}" disabled>{options}</select></label>'


def _generate_controls(prompt, options):
    """Prompt, temperature, top-k and top-p (``options``: engine.capstone.GENERATE) and the Generate button."""
    def shown(name, value):
        return "off" if (name == "top_k" and value == 0) or (name == "top_p" and value == 1.0) else value

    selects = "".join(
        f'<label>{label} <select class="lw-capstone__{name}" disabled>'
        + "".join(f'<option value="{value}">{shown(name, value)}</option>' for value in options[name])
        + "</select></label>" for name, label in (("temperature", "Temperature"), ("top_k", "Top-k"),
                                                  ("top_p", "Top-p")))
    return (f'<label>Prompt <input type="text" class="lw-capstone__prompt" value="{escape(prompt)}" maxlength="60" '
            f'size="14" disabled></label>{selects}{_button("generate", "Generate")}')


def _button(name, text):
    return f'<button type="button" class="lw-button lw-capstone__{name}" disabled>{escape(text)}</button>'


def expectation(curve, steps, model, trained_loss):
    """What good looks like, from the engine's own run with the chosen settings and ``model`` (the label of the
    configuration; the page's script rewrites the three spans when they change) and, when the site has one, the
    fully trained model of "Inside a trained model"."""
    text = (f'<p class="lw-capstone__expect">What to expect, with the model <span class="lw-capstone__expect-model">'
            f'{escape(model)}</span>: after <span class="lw-capstone__expect-steps">{steps}'
            '</span> steps the engine\'s own run reaches a validation loss of <span class="lw-capstone__expect-val">'
            f'{curve["val"][-1][1]:.4f}</span> and writes '
            'word-shaped gibberish: spaces, capitals and letter clumps in roughly the right places, few real '
            'words. With correct functions yours matches it to round-off.')
    if trained_loss is not None:
        text += (' The model of <a href="../inside/">Inside a trained model</a>, trained much longer, reaches '
                 f'{trained_loss:.4f} and writes many short real words among invented ones.')
    return text + "</p>"


def one_line(sample):
    """A sampled text on one line, its line breaks written as verse is quoted: " / ", and " // " between stanzas (as
    capstone.js's oneLine), so that each sample takes the room its slot has."""
    return re.sub(r"\n{2,}", " // ", sample).replace("\n", " / ")


def trainer_html(reference, choices, defaults, default_key, data, trained_loss=None):
    """Controls, statistics, chart, what to expect and samples; ``reference``: the engine's curves by setting key;
    ``data``: what the page's script needs besides (sample and validation intervals); ``trained_loss``: the held-out
    loss of the site's trained model, or None."""
    curve = reference[default_key]
    controls = (_preset_select(data["presets"]) + _select("steps", "Steps", choices["steps"], defaults["steps"])
                + _select("lr", "Learning rate", choices["lr"], defaults["lr"])
                + _select("seed", "Seed", choices["seed"], defaults["seed"])
                + "".join(_button(name, text) for name, text in (("check", "Check"), ("train", "Train"),
                                                                 ("pause", "Pause"), ("resume", "Resume"),
                                                                 ("stop", "Stop"), ("download", "Download your model"))))
    stats = "".join(f'<div><dt>{label}</dt><dd class="lw-capstone__{key}">–</dd></div>' for key, label in STATS)
    label = (f"Training loss per step: the engine's own run ({defaults['steps']} steps, learning rate "
             f"{defaults['lr']}, seed {defaults['seed']}) and yours once you train")
    attributes = escape(json.dumps({"reference": reference, **data}), quote=True)
    generate = _generate_controls(data["prompt"], data["generate"])
    return (f'<div class="lw-capstone" data-capstone="{attributes}">'
            f'<div class="lw-capstone__controls">{controls}</div>'
            f'<p class="lw-capstone__status" role="status">{escape(NEEDS)}</p>'
            f'<dl class="lw-capstone__stats">{stats}</dl>'
            f'<figure class="lw-capstone__figure">{chart_svg(curve["train"], defaults["steps"], label)}'
            '<figcaption><span class="lw-capstone__key lw-capstone__key--reference">the engine\'s run</span> '
            '<span class="lw-capstone__key lw-capstone__key--yours">yours</span></figcaption></figure>'
            f'{expectation(curve, defaults["steps"], next(iter(data["presets"].values()))["label"], trained_loss)}'
            '<p class="lw-capstone__samples-title">Lines sampled from the model (prompt '
            f'<code>{escape(json.dumps(data["prompt"]))}</code>; a line break is written /): the engine\'s, then '
            'yours, the newest first.</p>'
            '<ul class="lw-capstone__samples" aria-live="off">'
            f'<li class="lw-capstone__engine-sample"><span class="lw-capstone__sample-step">the engine\'s, step '
            f'<span class="lw-capstone__expect-steps">{defaults["steps"]}</span>:</span> '
            f'<samp>{escape(one_line(curve["sample"]))}</samp></li>{_sample_slots(choices, data)}</ul>'
            f'<div class="lw-capstone__controls lw-capstone__generation">{generate}</div>'
            '<p class="lw-capstone__generated-by">Generate writes '
            f'{data["generate"]["tokens"]} characters with the model you trained, drawn by your sampler once '
            'you pass it, with your decode step and its cache once you pass that too.</p>'
            '<pre class="lw-capstone__generated" aria-live="off"></pre></div>')


def _sample_slots(choices, data):
    """A slot for each line the longest run samples, the newest first, written with its room so that nothing moves
    as a run fills them (capstone.js)."""
    steps = range(max(choices["steps"]) // data["sampleEvery"] * data["sampleEvery"], 0, -data["sampleEvery"])
    return "".join(f'<li class="lw-capstone__sample-slot" data-step="{step}"><span class="lw-capstone__sample-step">'
                   f'yours, step {step}:</span> <samp>–</samp></li>' for step in steps)
