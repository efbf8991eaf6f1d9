"""The plugin's part for the page "Build your GPT" (option ``capstone``, its module: ``engine.capstone``): the
```capstone fence, ``part="functions"`` (every function the model needs, from the module's ``layers``, grouped by
its ``structure``, and the exercise of the ``practice`` module that makes it the learner's) or ``part="trainer"``
(controls, chart, samples, with the engine's own curves for every offered setting, computed here by its
``reference`` and cached by a hash of the package).

Runs after the practice part, whose browser files (``<widgets>/practice/``) hold the page's script, ``capstone.js``,
and whose worker runs the module's ``session`` (named in engine-config.js).
"""
import importlib
import json
from html import escape
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from ..livewidgets import fences
from ..livewidgets.engine_package import source_digest
from ..capstone import page as render
from . import inside as inside_part
from . import widgets as widgets_part

CACHE = Path(".cache") / "layerwise-capstone"  # under the project's root
STYLESHEET = "assets/layerwise/practice/capstone.css"  # shipped with the practice part's files
_build = {}  # reset in on_config: `mkdocs serve` reuses this module


def on_config(config, options, root):
    widgets_part.worker_module("capstone", f"{options.capstone}.session")
    _build.clear()
    _build.update(root=root, package=options.package, capstone=importlib.import_module(options.capstone),
                  layers=importlib.import_module(f"{options.capstone}.layers"),
                  structure=importlib.import_module(f"{options.capstone}.structure"),
                  reference=importlib.import_module(f"{options.capstone}.reference"),
                  exercises=importlib.import_module(options.practice))
    if STYLESHEET not in [str(e) for e in config.extra_css]:
        config.extra_css.append(STYLESHEET)
    custom = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    custom[:] = [f for f in custom if f.get("name") != "capstone"]
    custom.append({"name": "capstone", "class": "capstone", "format": _format, "validator": _validate})
    return config


def on_files(files, config):
    _build["files"] = files
    return files


def on_page_markdown(markdown, page, **kwargs):
    _build["page"], _build["page_url"] = page.file.src_uri, page.url
    return markdown


def on_post_page(output, page, **kwargs):
    """The page with the trainer renders every block at once (capstone.css says why)."""
    if 'class="lw-capstone"' not in output:
        return output
    article = 'class="md-content__inner md-typeset"'
    if article not in output:
        raise PluginError(f"{page.file.src_uri}: no <article {article}> to mark (did the theme change?)")
    return output.replace(article, 'class="md-content__inner md-typeset lw-render-all"', 1)


def _validate(language, inputs, options, attrs, md):
    fences.check_attributes(_build["page"], "capstone", inputs, required="part", allowed=("part",))
    if inputs["part"] not in ("functions", "trainer"):
        fences.fail(_build["page"], f"capstone fence: part must be functions or trainer, got {inputs['part']!r}")
    options.update(inputs)
    return True


def _format(source, language, class_name, options, md, **kwargs):
    if source.strip():
        fences.fail(_build["page"], "capstone fence: the body must be empty")
    return _functions() if options["part"] == "functions" else _trainer()


def _link(exercise):
    target = _build["files"].get_file_from_path(exercise.PAGE)
    if target is None:
        raise PluginError(f"{_build['page']}: exercise page {exercise.PAGE} is not in the site")
    return get_relative_url(target.url, _build["page_url"])


def _called_by(capstone, structure):
    """{row: [preset, ...]}: the presets whose model calls each row's function, as that row (in PRESETS' order)."""
    found = {}
    for preset in capstone.PRESETS:
        for _, _, rows in structure.parts(capstone.config(preset)):
            for item in rows:
                found.setdefault(item, []).append(preset)
    return found


def _functions():
    capstone, exercises, structure = _build["capstone"], _build["exercises"], _build["structure"]
    called_by = _called_by(capstone, structure)

    def row(item):
        if item.exercise is None:
            return item.engine_function, item.role, None, None, None, called_by[item]
        exercise = exercises.get(item.exercise)
        return (exercise.FUNCTION, item.role, item.exercise, f"{_link(exercise)}#exercise-{item.exercise}",
                f"exercise: {exercise.TITLE}", called_by[item])

    parts = [(heading, [row(item) for item in rows]) for _, heading, rows in structure.parts()]

    def others(preset):
        return "".join(
            f'<li><a href="{escape(_link(exercises.get(i)))}#exercise-{i}"><code>{escape(exercises.get(i).FUNCTION)}'
            f'</code></a>: {escape(reason)}</li>'
            for i, reason in _build["layers"].not_called(capstone.config(preset)).items())

    return render.functions_table(parts, structure.ENGINE_ONLY, list(capstone.PRESETS)) + render.not_called_lists(
        {preset: others(preset) for preset in capstone.PRESETS})


def _reference():
    """The engine's curves for every offered setting, from the cache when the package has not changed."""
    path = _build["root"] / CACHE / f"{source_digest(_build['root'], _build['package'])}.json"
    if path.is_file():
        return json.loads(path.read_text())
    curves = _build["reference"].curves()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(curves))
    return curves


def _trainer():
    capstone = _build["capstone"]
    if "curves" not in _build:
        _build["curves"] = _reference()
    presets = {name: {"label": capstone.PRESET_LABELS[name], "choices": capstone.choices(name)}
               for name in capstone.PRESETS}
    data = {"choices": capstone.CHOICES, "defaults": capstone.DEFAULTS, "evalEvery": capstone.EVAL_EVERY,
            "sampleEvery": capstone.SAMPLE_EVERY, "prompt": capstone.SAMPLE["prompt"], "generate": capstone.GENERATE,
            "presets": presets}
    return render.trainer_html(_build["curves"], capstone.CHOICES, capstone.DEFAULTS,
                               _build["reference"].key(**capstone.DEFAULTS), data, inside_part.held_out_loss())
