"""The HTML of the ```capstone fence: the list of the model's functions (each the engine's until the browser finds
a passed exercise), the training controls, the statistics, the chart with the engine's curve and its sample. Every
box has its final size in the HTML, so the page's script only changes texts and points."""
import json
from html import escape

from .chart import chart_svg

STATS = (("step", "Step"), ("loss", "Training loss"), ("val", "Validation loss"), ("speed", "Steps/s"),
         ("elapsed", "Elapsed"), ("remaining", "Remaining"), ("apart", "Apart from the engine's"))
NEEDS = ("Checking and training need JavaScript and the live engine (Python with NumPy, loaded into this tab the "
         "first time you press Check or Train). Without them this page shows the engine's own run: its curve below "
         "and the line its model wrote.")


def _row(function, role, exercise_id, link, title):
    if exercise_id is None:
        return (f'<tr><td><code>{escape(function)}</code></td><td>{escape(role)}</td>'
                f'<td>the engine\'s <span class="lw-capstone__why">(no exercise writes it)</span></td></tr>')
    return (f'<tr class="lw-capstone__function" data-exercise="{escape(exercise_id)}" data-function="{escape(function)}">'
            f'<td><code>{escape(function)}</code></td><td>{escape(role)}</td>'
            f'<td><span class="lw-capstone__source">the engine\'s</span> '
            f'<label class="lw-capstone__switch"><input type="checkbox" disabled> use the engine\'s</label> '
            f'<a href="{escape(link)}">{escape(title)}</a></td></tr>')


def functions_table(rows):
    """rows: (function, role in the model, exercise id or None, link to the exercise, exercise title)."""
    body = "".join(_row(*row) for row in rows)
    return ('<table class="lw-capstone__functions"><thead><tr><th>Function</th><th>In the model</th>'
            f'<th>Comes from</th></tr></thead><tbody>{body}</tbody></table>')


def _select(name, label, values, default):
    options = "".join(f'<option value="{value}"{" selected" if value == default else ""}>{value}</option>'
                      for value in values)
    return f'<label>{label} <select class="lw-capstone__{name}" disabled>{options}</select></label>'


def _button(name, text):
    return f'<button type="button" class="lw-button lw-capstone__{name}" disabled>{escape(text)}</button>'


def trainer_html(reference, choices, defaults, default_key, data):
    """Controls, statistics, chart and samples; ``reference``: the engine's curves by setting key; ``data``: what
    the page's script needs besides (sample and validation intervals)."""
    curve = reference[default_key]
    controls = (_select("steps", "Steps", choices["steps"], defaults["steps"])
                + _select("lr", "Learning rate", choices["lr"], defaults["lr"])
                + _select("seed", "Seed", choices["seed"], defaults["seed"])
                + "".join(_button(name, text) for name, text in (("check", "Check"), ("train", "Train"),
                                                                 ("pause", "Pause"), ("resume", "Resume"),
                                                                 ("stop", "Stop"), ("download", "Download your model"))))
    stats = "".join(f'<div><dt>{label}</dt><dd class="lw-capstone__{key}">–</dd></div>' for key, label in STATS)
    label = (f"Training loss per step: the engine's own run ({defaults['steps']} steps, learning rate "
             f"{defaults['lr']}, seed {defaults['seed']}) and yours once you train")
    attributes = escape(json.dumps({"reference": reference, **data}), quote=True)
    return (f'<div class="lw-capstone" data-capstone="{attributes}">'
            f'<div class="lw-capstone__controls">{controls}</div>'
            f'<p class="lw-capstone__status" role="status">{escape(NEEDS)}</p>'
            f'<dl class="lw-capstone__stats">{stats}</dl>'
            f'<figure class="lw-capstone__figure">{chart_svg(curve["train"], defaults["steps"], label)}'
            '<figcaption><span class="lw-capstone__key lw-capstone__key--reference">the engine\'s run</span> '
            '<span class="lw-capstone__key lw-capstone__key--yours">yours</span></figcaption></figure>'
            '<p class="lw-capstone__samples-title">Lines sampled from the model (prompt '
            f'<code>{escape(json.dumps(data["prompt"]))}</code>):</p>'
            '<ol class="lw-capstone__samples" aria-live="off">'
            f'<li><span class="lw-capstone__sample-step">the engine\'s, step {defaults["steps"]}:</span> '
            f'<samp>{escape(curve["sample"])}</samp></li></ol></div>')
