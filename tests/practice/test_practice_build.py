"""The build side of practice: the exercise and practice-index fences, the Practice heading's count, the progress
line and knowledge-check answer boxes written by the build, and the code editor's bundle (only what is imported, cached by what goes in)."""
import json
from html import unescape
from pathlib import Path

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

from layerwise_build.parts import practice as practice_part
from layerwise_build.practice import bundle, fence, progress
from layerwise_build import sitenav
from engine import exercises
from engine.exercises import get

ROOT = Path(__file__).resolve().parents[2]


def page_html(text, page="layers/layernorm.md"):
    """Render Markdown with the practice fences the way the plugin's part registers them, as ``page``."""
    practice_part._build.update(page=page, page_url=page.replace(".md", "/"), exercises_on_page={},
                                engine_hash="test", placements={}, exercises=exercises)
    practice_part._validated.clear()
    fences = [{"name": "exercise", "class": "exercise", "format": practice_part._format_exercise,
               "validator": practice_part._validate_exercise},
              {"name": "practice-index", "class": "practice-index", "format": practice_part._format_index,
               "validator": practice_part._validate_index}]
    return markdown.markdown(text, extensions=["pymdownx.superfences", "admonition"],
                             extension_configs={"pymdownx.superfences": {"custom_fences": fences}})


def test_an_exercise_renders_title_statement_starter_note_and_its_data():
    html = page_html('```exercise id="layernorm-forward"\n```')
    module = get("layernorm-forward")
    assert '<div class="lw-exercise" id="exercise-layernorm-forward" data-exercise="layernorm-forward"' in html
    assert '<h3 class="lw-exercise__title">LayerNorm forward</h3>' in html
    assert '<span class="lw-exercise__kind">Write it</span>' in html
    # Inline math is left to the build's KaTeX pass; `code` becomes <code>.
    assert '<span class="arithmatex">\\(\\sqrt{\\mathrm{var} + \\epsilon}\\)</span>' in html
    assert "<code>layernorm_forward(x, gamma, beta, eps=1e-5)</code>" in html
    assert '<span class="k">def</span><span class="w"> </span><span class="nf">layernorm_forward</span>' in html  # highlighted
    assert "Running the tests needs the live engine" in html
    data = json.loads(unescape(html.split('data-practice="', 1)[1].split('"', 1)[0]))
    assert data == {"function": "layernorm_forward", "starter": module.STARTER, "solution": module.SOLUTION,
                    "hints": list(module.HINTS), "lab": False}
    assert practice_part._build["exercises_on_page"] == {"layers/layernorm.md": 1}


def test_markup_in_an_exercise_text_stays_text():
    class Hostile:
        TITLE = "<b>x</b>"
        KIND = "fix"
        STATEMENT = "Write `<script>`."
        STARTER = SOLUTION = FUNCTION = 'def f():\n    return "</div><script>alert(1)</script>"\n'
        HINTS = ('"><img src=x onerror=alert(1)>',)

    html = fence.exercise_html("x", Hostile)
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<code>&lt;script&gt;</code>" in html


@pytest.mark.parametrize("text, message", [
    ('```exercise id="nope"\n```', "page 'layers/layernorm.md', exercise 'nope': unknown exercise 'nope'; "
                                   "known exercises: "),
    ('```exercise\n```', 'layers/layernorm.md: exercise fence: the attribute id="..." is missing (allowed: id)'),
    ('```exercise id="layernorm-forward" size="2"\n```',
     "layers/layernorm.md: exercise fence: unknown attribute 'size' (allowed: id)"),
    ('```exercise id="layernorm-forward"\nprint(1)\n```', "layers/layernorm.md: exercise 'layernorm-forward': the "
                                                          "fence's body must be empty (the exercise lives in its module)"),
])
def test_a_bad_exercise_fence_stops_the_build_naming_page_and_exercise(text, message):
    with pytest.raises(SuperFencesException) as caught:
        page_html(text)
    assert message in str(caught.value)


@pytest.mark.parametrize("attribute, value, message", [
    ("SOLUTION", None, "the solution fails its own tests"),  # None: the starter as the solution
    ("STARTER", "def layernorm_forward(x, gamma, beta, eps=1e-5)\n    pass\n", "STARTER does not parse"),
])
def test_an_exercise_that_fails_validation_stops_the_build(monkeypatch, attribute, value, message):
    module = get("layernorm-forward")
    monkeypatch.setattr(module, attribute, module.STARTER if value is None else value)
    with pytest.raises(SuperFencesException) as caught:
        page_html('```exercise id="layernorm-forward"\n```')
    assert str(caught.value).startswith("page 'layers/layernorm.md', exercise 'layernorm-forward': ")
    assert message in str(caught.value)


def test_an_exercise_on_another_page_than_its_module_says_stops_the_build():
    with pytest.raises(SuperFencesException) as caught:
        page_html('```exercise id="layernorm-forward"\n```', page="layers/linear.md")
    assert ("layers/linear.md: exercise 'layernorm-forward' belongs on layers/layernorm.md (its module's PAGE), "
            "not here") in str(caught.value)


def test_the_practice_heading_gets_the_page_count():
    class Page:
        class file:
            src_uri = "layers/layernorm.md"

    practice_part._build["exercises_on_page"] = {"layers/layernorm.md": 2}
    html = practice_part.on_page_content('<h2 id="practice">Practice<a class="headerlink" href="#practice">¶</a></h2>',
                                         Page)
    assert html == ('<h2 id="practice">Practice <span class="lw-practice-count" data-total="2">0/2</span>'
                    '<a class="headerlink" href="#practice">¶</a></h2>')
    with pytest.raises(Exception, match="exercises need a '## Practice' heading above them"):
        practice_part.on_page_content("<h2 id='other'>Other</h2>", Page)


def test_the_index_lists_placed_exercises_in_nav_order_with_relative_links():
    nav = [{"Layers": [{"Linear": "layers/linear.md"}, {"LayerNorm": "layers/layernorm.md"}]}]  # not alphabetical
    practice_part._build.update(page="practice.md", page_url="practice/", nav_position=sitenav.nav_position(nav),
                                exercises=exercises, placements={
        "layernorm-backward": ("layers/layernorm.md", "LayerNorm", "layers/layernorm/"),
        "linear-forward": ("layers/linear.md", "Linear", "layers/linear/")})
    html = practice_part._format_index("", "practice-index", "", {}, None)
    rows = html.split("<tr data-exercise=")[1:]
    assert [row.split('"')[1] for row in rows] == ["linear-forward", "layernorm-backward"]  # linear's page first
    assert '<a href="../layers/linear/#exercise-linear-forward">' in rows[0]
    assert '<td class="lw-practice-index__state">not started</td>' in rows[1]
    assert "2 exercises." in html


def test_the_editor_bundle_holds_only_what_is_imported_and_is_cached(tmp_path):
    entry = ROOT / "widgets" / "practice" / "codemirror.js"
    path = bundle.build_bundle(ROOT, entry, tmp_path)
    built_at = path.stat().st_mtime_ns
    assert bundle.build_bundle(ROOT, entry, tmp_path) == path and path.stat().st_mtime_ns == built_at
    text = path.read_text()
    assert "export{" in text.replace(" ", "") and "createEditor" in text and "showCode" in text
    licences = bundle.licences_path(path).read_text()
    packages = [line for line in licences.splitlines() if line.startswith("@") or line in ("style-mod", "w3c-keyname")]
    assert "@codemirror/lang-python" in packages and "@codemirror/view" in packages
    assert "@codemirror/autocomplete" not in packages  # lang-python's completion is not imported, so not bundled
    raw, gzipped = bundle.sizes(path)
    assert raw == len(path.read_bytes()) and 0 < gzipped < raw


def test_the_figure_bundle_is_dompurify_with_its_licence(tmp_path):
    path = bundle.build_bundle(ROOT, ROOT / "widgets" / "practice" / "figure.js", tmp_path)
    assert path.name == "figure.bundle.js" and "drawingOnly" in path.read_text()
    licences = bundle.licences_path(path).read_text()
    assert licences.startswith("The bundle figure.bundle.js contains these npm packages:\n\ndompurify\n")
    assert "Apache License" in licences and "@codemirror" not in licences


def test_the_bundle_builds_with_a_symlinked_node_modules(tmp_path):
    # pnpm-style and shared set-ups link node_modules; esbuild then names inputs by their real paths
    project = tmp_path / "project"
    project.mkdir()
    (project / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    (project / "package-lock.json").write_bytes((ROOT / "package-lock.json").read_bytes())
    entry = project / "codemirror.js"
    entry.write_bytes((ROOT / "widgets" / "practice" / "codemirror.js").read_bytes())
    path = bundle.build_bundle(project, entry, tmp_path / "cache")
    licences = bundle.licences_path(path).read_text()
    assert "\n@codemirror/view\n" in licences and "../" not in licences
    assert "(no licence file in the package)" not in licences.split("@codemirror/view", 1)[1].split("\n\n@", 1)[0]


def test_a_broken_entry_fails_with_esbuilds_message(tmp_path):
    entry = tmp_path / "entry.js"
    entry.write_text('import { nothing } from "@codemirror/not-a-package";\nexport const x = nothing;\n')
    with pytest.raises(bundle.BundleError, match="esbuild could not bundle .*not-a-package"):
        bundle.build_bundle(ROOT, entry, tmp_path / "cache")


def test_the_build_writes_what_practice_shows_so_nothing_moves_when_its_script_runs():
    html = ('<h1 id="t">Title</h1><p>Text</p>'
            '<details class="question">\n<summary>What is <span class="arithmatex">x</span>?</summary>\n'
            '<p>Because.</p><details class="note"><summary>More</summary><p>Inner.</p></details></details>'
            '<details class="question" open><summary>Second?</summary><p>So.</p></details><p>After</p>')
    boxed, questions = progress.answer_boxes(html)
    assert questions == 2
    assert boxed == (
        '<h1 id="t">Title</h1><p>Text</p>'
        '<div class="lw-question"><p class="lw-question__text">What is <span class="arithmatex">x</span>?</p>'
        '<label class="lw-question__label" for="lw-answer-1">Your answer</label>'
        '<textarea class="lw-question__answer" id="lw-answer-1" rows="2"></textarea>'
        '<details class="question"><summary>Show the explanation</summary>\n'
        '<p>Because.</p><details class="note"><summary>More</summary><p>Inner.</p></details></details></div>'
        '<div class="lw-question"><p class="lw-question__text">Second?</p>'
        '<label class="lw-question__label" for="lw-answer-2">Your answer</label>'
        '<textarea class="lw-question__answer" id="lw-answer-2" rows="2"></textarea>'
        '<details class="question" open><summary>Show the explanation</summary><p>So.</p></details></div>'
        '<p>After</p>')
    lined = progress.with_progress_line(boxed, exercises=3, questions=questions)
    assert lined.startswith('<h1 id="t">Title</h1><p class="lw-progress" aria-live="polite">'
                            'Practice 0/3 · Knowledge check 0/2 answered</p><p>Text</p>')
    assert progress.with_progress_line("<h1>T</h1>", exercises=0, questions=0) == "<h1>T</h1>"
    assert progress.with_progress_line("<h1>T</h1>", exercises=0, questions=1).endswith(
        ">Knowledge check 0/1 answered</p>")


def test_a_question_block_that_never_closes_is_named():
    with pytest.raises(progress.MarkupError, match="the knowledge-check question 'Q' has no closing </details>"):
        progress.answer_boxes('<p>x<details class="question"><summary>Q</summary><p>no end</p>')


def test_an_exercise_the_model_uses_links_to_build_your_gpt():
    practice_part._build.update(model_page=("Build your GPT", "model/build-your-gpt/"),
                                in_model={"layernorm-forward"})
    try:
        used = page_html('```exercise id="layernorm-forward"\n```')
        unused = page_html('```exercise id="rmsnorm-forward"\n```', page="layers/rmsnorm.md")
    finally:
        practice_part._build.update(model_page=None, in_model=set())
    assert ('<p class="lw-exercise__used">Once you pass it, <a href="../../model/build-your-gpt/">Build your GPT</a> '
            "runs your function inside the whole model.</p>") in used
    assert "lw-exercise__used" not in unused


def test_the_model_uses_exactly_the_exercises_its_capstone_swaps_in():
    from engine.capstone import CONFIG, config, layers
    ids = set(layers.exercise_ids(CONFIG))  # GPT-2's model
    assert {"layernorm-forward", "layernorm-backward", "causal-mask", "learning-rate"} <= ids
    assert "rmsnorm-forward" not in ids and "relu-backward" not in ids  # the model uses LayerNorm and GELU
    # a configuration the page offers calls RMSNorm's, none ReLU's: the practice page says so of the first only
    assert "rmsnorm-forward" in layers.exercise_ids(config("rmsnorm")) and "relu-backward" not in layers.exercise_ids()
