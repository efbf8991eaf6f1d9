"""The plugin's part for practice (option ``practice``, the exercises' module): the ``exercise`` and
``practice-index`` fences, the "Practice 0/N" count in a page's Practice heading and under its title, the knowledge
checks' answer boxes, and the browser code (``<widgets>/practice/``, the editor's and the figure's bundles) in the site; the engine
client they share with the widgets ships with the widgets' part.

Runs after the widgets' part, whose engine wheel and engine-config.js the practice worker uses too (the module is
named there for it). Every exercise is checked by the module's ``validate`` (``engine.exercises.validate``) as its
fence is rendered, so the strict build
fails on an unknown id, a starter or solution that does not parse, or a solution failing its own tests.
"""
import importlib
import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url
from pymdownx.superfences import SuperFencesException

from .. import sitenav
from ..livewidgets import fences
from ..livewidgets.engine_package import source_digest
from ..practice import bundle, fence, progress
from . import widgets as widgets_part

ASSETS = "assets/layerwise"  # beside the widgets' files: engine-config.js and the engine's lock file are found relative to it
# in <widgets>/practice/, bundled with their npm packages, not shipped as they are: the code editor (CodeMirror) and
# the LAB figure's sanitizer (DOMPurify)
BUNDLED = ("codemirror.js", "figure.js")
EDITOR_CACHE = Path(".cache") / "layerwise-editor"  # under the project's root
# ```exercise id="..."``` as written in a page (any fence length, any indentation: admonitions and tabs too)
EXERCISE_FENCE = re.compile(r'^[ \t]*(?:`{3,}|~{3,})[ \t]*exercise\b[^\n]*?\bid="([^"]+)"', re.M)
CAPSTONE_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*capstone\b", re.M)  # the page "Build your GPT"
PRACTICE_HEADING = re.compile(r'(<h2 id="practice">Practice)')

log = logging.getLogger("mkdocs.plugins.layerwise.practice")
_build = {}  # state of the current build; reset in on_config because `mkdocs serve` reuses this module
# (hash of engine/, exercise id, page) already validated: a `mkdocs serve` rebuild after a prose edit skips grading
# every solution again (~1.5 s for 32 exercises); any change under engine/ validates them all afresh.
_validated = set()


def browser_files(widgets):
    """The files shipped under ``assets/layerwise/practice/``: practice's scripts and styles (the engine client
    they use ships with the widgets' part)."""
    return [f"practice/{p.name}" for p in sorted((widgets / "practice").iterdir())
            if p.suffix in (".js", ".css") and p.name not in BUNDLED]


def on_config(config, options, root):
    widgets = Path(options.widgets)
    try:
        bundles = [bundle.build_bundle(root, widgets / "practice" / entry, root / EDITOR_CACHE) for entry in BUNDLED]
    except bundle.BundleError as error:
        raise PluginError(str(error)) from None
    _build.clear()
    _build.update(bundles=bundles, placements={}, page=None, page_url=None, exercises_on_page={},
                  engine_hash=source_digest(root, options.package), nav_position=sitenav.nav_position(config.nav),
                  exercises=importlib.import_module(options.practice), widgets=widgets, model_page=None,
                  # exercises whose function "Build your GPT" puts into the model: each says so, with a link
                  in_model=set(importlib.import_module(f"{options.capstone}.layers").exercise_ids())
                  if options.capstone else set())
    widgets_part.worker_module("practice", options.practice)
    loader = f"{ASSETS}/practice/loader.js"
    if loader not in [str(e) for e in config.extra_javascript]:
        config.extra_javascript.append(loader)
    if f"{ASSETS}/practice/practice.css" not in [str(e) for e in config.extra_css]:
        config.extra_css.append(f"{ASSETS}/practice/practice.css")
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    fences[:] = [f for f in fences if f.get("name") not in ("exercise", "practice-index")]
    fences.append({"name": "exercise", "class": "exercise", "format": _format_exercise,
                   "validator": _validate_exercise})
    fences.append({"name": "practice-index", "class": "practice-index", "format": _format_index,
                   "validator": _validate_index})
    return config


def on_files(files, config):
    """Where every exercise is placed (for the list of all of them), and the browser files."""
    for page in files.documentation_pages():
        text = page.content_string
        title = re.search(r"^# (.+)$", text, re.M)
        for exercise_id in EXERCISE_FENCE.findall(text):
            if exercise_id in _build["placements"]:
                raise PluginError(f"exercise '{exercise_id}' is placed twice: on {_build['placements'][exercise_id][0]}"
                                  f" and on {page.src_uri}")
            _build["placements"][exercise_id] = (page.src_uri, title.group(1) if title else page.src_uri, page.url)
        if CAPSTONE_FENCE.search(text):
            _build["model_page"] = (title.group(1) if title else page.src_uri, page.url)
    for name in browser_files(_build["widgets"]):
        files.append(File.generated(config, f"{ASSETS}/{name}", abs_src_path=str(_build["widgets"] / name)))
    for built in _build["bundles"]:
        for path in (built, bundle.licences_path(built)):
            files.append(File.generated(config, f"{ASSETS}/practice/{path.name}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown, page, **kwargs):
    _build["page"], _build["page_url"] = page.file.src_uri, page.url
    return markdown


def _validate_exercise(language, inputs, options, attrs, md):
    fences.check_attributes(_build["page"], "exercise", inputs, required="id", allowed=("id",))
    options.update(inputs)
    return True


def _format_exercise(source, language, class_name, options, md, **kwargs):
    exercises, exercise_id, page = _build["exercises"], options["id"], _build["page"]
    if source.strip():
        _fail(f"exercise '{exercise_id}': the fence's body must be empty (the exercise lives in its module)")
    key = (_build["engine_hash"], exercise_id, page)
    try:
        exercise = exercises.get(exercise_id) if key in _validated else exercises.validate(exercise_id, page)
    except ValueError as error:  # the engine's LayerwiseError: a problem of the exercise, named
        raise SuperFencesException(str(error)) from None
    _validated.add(key)
    if exercise.PAGE != page:
        _fail(f"exercise '{exercise_id}' belongs on {exercise.PAGE} (its module's PAGE), not here")
    counts = _build["exercises_on_page"]
    counts[page] = counts.get(page, 0) + 1
    model_page = _build.get("model_page")
    used_in = ((model_page[0], get_relative_url(model_page[1], _build["page_url"]))
               if model_page and exercise_id in _build.get("in_model", ()) else None)
    return fence.exercise_html(exercise_id, exercise, used_in)


def _validate_index(language, inputs, options, attrs, md):
    if inputs:
        _fail(f"practice-index fence: unknown attribute {sorted(inputs)[0]!r} (it takes none)")
    return True


def _format_index(source, language, class_name, options, md, **kwargs):
    exercises = _build["exercises"]
    # an exercise on no page is not listed
    placed = [exercise_id for exercise_id in exercises.ids() if exercise_id in _build["placements"]]
    # the nav's page order, then each module's ORDER within a page (ids() sorts by ORDER)
    placed.sort(key=lambda exercise_id: _build["nav_position"](_build["placements"][exercise_id][0]))
    entries = []
    for exercise_id in placed:
        _, title, url = _build["placements"][exercise_id]
        link = get_relative_url(url, _build["page_url"]) + f"#exercise-{exercise_id}"
        entries.append((exercise_id, exercises.get(exercise_id), title, link))
    return fence.index_html(entries)


def on_page_content(html, page, **kwargs):
    """Write what practice will show, so nothing moves when its script runs: the answer box of each knowledge-check
    question, the progress line under the title and the exercise count in the Practice heading (0 passed: the
    browser fills in what this browser remembers)."""
    total = _build["exercises_on_page"].get(page.file.src_uri, 0)
    try:
        html, questions = progress.answer_boxes(html)
    except progress.MarkupError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
    html = progress.with_progress_line(html, total, questions)
    if not total:
        return html
    if not PRACTICE_HEADING.search(html):
        raise PluginError(f"{page.file.src_uri}: exercises need a '## Practice' heading above them")
    return PRACTICE_HEADING.sub(rf'\1 <span class="lw-practice-count" data-total="{total}">0/{total}</span>', html,
                                count=1)


def on_post_build(config):
    for built in _build["bundles"]:
        raw, gzipped = bundle.sizes(built)
        log.info(f"practice: {built.name} {raw:,} bytes ({gzipped:,} gzip)")


def _fail(message):
    fences.fail(_build["page"], message)


def on_serve(server, config, builder):
    server.watch(str(_build["widgets"]))
    return server
