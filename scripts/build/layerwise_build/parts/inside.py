"""The plugin's part for the page "Inside a trained model" (option ``inside``, its module: ``engine.inside``): the
```inside fences, the trained checkpoint and its browser code.

``on_config`` makes sure the trained model exists (``livewidgets/trained_model.py``: trained once per change of the
training code, then cached); each fence ``inside panel="..."`` renders one panel pre-computed for the default
prompt by the module's ``analysis`` (which the browser's worker runs when the reader edits the prompt; its name
goes to engine-config.js) and drawn by its ``panels``; the checkpoint is served from the site as
``assets/layerwise/model-<key>.npz`` and fetched by the worker.
Runs after the widgets' part, whose engine wheel and worker the page uses.
"""
import html
import importlib
import json
import logging
from pathlib import Path

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.structure.files import File

from ..livewidgets import fences, trained_model
from . import widgets as widgets_part

ASSETS = "assets/layerwise"
BROWSER_FILES = ("inside.js", "inside.css")
DEFAULT_PROMPT = "Call me Ishmael. Some years ago"  # Moby-Dick's first words, longer than seq_len
NEW_CHARACTERS = 40  # what Generate adds
PANELS = ("controls", "tokens", "attention", "rms", "next", "generate", "metrics")
LOG = logging.getLogger("mkdocs.hooks.inside")

_build = {}  # reset in on_config: `mkdocs serve` reuses this module


def on_config(config, options, root):
    folder = trained_model.ensure(root, options.package, log=LOG.info)
    analysis = f"{options.inside}.analysis"
    widgets_part.worker_module("inside", analysis)
    _build.clear()
    _build.update(folder=folder, page=None, result=None, widgets=Path(options.widgets),
                  analysis=importlib.import_module(analysis),
                  panels=importlib.import_module(f"{options.inside}.panels"))
    script = ExtraScriptValue(f"{ASSETS}/inside.js")
    script.type = "module"
    if str(script) not in [str(e) for e in config.extra_javascript]:
        config.extra_javascript.append(script)
    if f"{ASSETS}/inside.css" not in [str(e) for e in config.extra_css]:
        config.extra_css.append(f"{ASSETS}/inside.css")
    fences.register(config, "inside", _format, _validate)
    return config


def model_file():
    return f"model-{_build['folder'].name}.npz"


def on_page_markdown(markdown, page, **kwargs):
    _build["page"] = page.file.src_uri
    return markdown


def _validate(language, inputs, options, attrs, md):
    fences.check_attributes(_build["page"], "inside", inputs, required="panel", allowed=("panel",))
    if inputs["panel"] not in PANELS:
        fences.fail(_build["page"], f"inside fence: unknown panel {inputs['panel']!r} (known: {', '.join(PANELS)})")
    options.update(inputs)
    return True


def _analysis():
    """The engine's analysis of the default prompt, made once per build (the import is the build's fresh engine)."""
    if _build["result"] is None:
        inside = _build["analysis"]
        params, config, vocab = inside.load(str(_build["folder"] / trained_model.CHECKPOINT))
        _build["result"] = inside.analyse(params, config, vocab, DEFAULT_PROMPT)
        _build["report"] = inside.report(params, config, vocab)
    return _build["result"]


def held_out_loss():
    """The trained model's loss on the held-out tenth of the corpus (its metrics table's first row), or None when
    the build has no trained model part; Build your GPT sets its short run against it."""
    if not _build:
        return None
    _analysis()
    return _build["report"][0][1]


def _format(source, language, class_name, options, md, **kwargs):
    panels = _build["panels"]
    panel = options["panel"]
    result = _analysis()
    if panel == "controls":
        initial = {key: result[key] for key in ("prompt", "attention", "next")}
        body = panels.controls(DEFAULT_PROMPT, result["note"], NEW_CHARACTERS)
        attributes = (f' data-model="{model_file()}" data-new="{NEW_CHARACTERS}"'
                      f' data-initial="{html.escape(json.dumps(initial), quote=True)}"')
    elif panel == "metrics":
        body, attributes = panels.metrics_table(_build["report"]), ""
    elif panel == "generate":
        body, attributes = panels.generate_panel(), ""
    else:
        body, attributes = result["html"][panel], ""
    return f'<div class="lw-inside lw-inside-{panel}" data-panel="{panel}"{attributes}>{body}</div>'


def on_files(files, config):
    for name in BROWSER_FILES:
        files.append(File.generated(config, f"{ASSETS}/{name}", abs_src_path=str(_build["widgets"] / name)))
    files.append(File.generated(config, f"{ASSETS}/{model_file()}",
                                abs_src_path=str(_build["folder"] / trained_model.CHECKPOINT)))
    return files
