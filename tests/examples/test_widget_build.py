"""The build side of the widgets: the ```widget fence and the Pyodide folder check (the engine package is tested in
tests/site/test_engine_package.py)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

from layerwise_build.parts import widgets as widgets_part
from engine import examples
from layerwise_build.livewidgets import pyodide_dist

ROOT = Path(__file__).resolve().parents[2]


def page_html(text):
    """Render Markdown with the widget fence the way the plugin's part registers it, as page "x.md"."""
    widgets_part._build.update(kinds=examples, page="x.md", counts={})
    fence = {"name": "widget", "class": "widget", "format": widgets_part._format_widget,
             "validator": widgets_part._validate_widget}
    return markdown.markdown(text, extensions=["pymdownx.superfences", "admonition"],
                             extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}})


def test_fences_render_prerendered_widgets_with_ids():
    html = page_html('```widget kind="linear"\n```\n\n```widget kind="linear" id="mine"\n{"b": [1, 1, 1]}\n```\n\n'
                     '!!! note\n\n    ```widget kind="linear"\n    ```\n')
    assert html.count('class="lw-widget"') == 3
    assert 'data-widget-id="linear-1"' in html and 'data-widget-id="mine"' in html
    assert 'data-widget-id="linear-2"' in html  # the one inside the admonition
    # Y = X @ W + b of the worked example, row 1: -1, 3, 1; with b = 1 everywhere: 0, 3, 3.
    assert "<td>-1.0000</td><td>3.0000</td><td>1.0000</td>" in html
    assert "<td>0.0000</td><td>3.0000</td><td>3.0000</td>" in html
    assert 'readonly value="1"' in html  # inputs are shown as values without JavaScript


@pytest.mark.parametrize("fence, message", [
    ('```widget kind="nope"\n```', "x.md: widget 'nope-1' (kind 'nope'): unknown widget kind 'nope'"),
    ('```widget kind="linear"\n{"X": [[1, 2, 3]]\n```', "x.md: widget 'linear-1' (kind 'linear'): the body is not valid JSON"),
    ('```widget kind="linear"\n[1, 2]\n```', "the body must be a JSON object of inputs, got list"),
    ('```widget kind="linear"\n{"X": [[1, 2, 3]]}\n```',
     "linear example: X has shape (1, 3) but W has shape (2, 3): columns of X must equal rows of W (a)"),
    ('```widget kind="linear" size="2"\n```', "x.md: widget fence: unknown attribute 'size' (allowed: kind, id)"),
    ('```widget id="a"\n```', 'x.md: widget fence: the attribute kind="..." is missing'),
])
def test_a_bad_fence_stops_the_build_naming_page_and_widget(fence, message):
    with pytest.raises(SuperFencesException) as caught:
        page_html(fence)
    assert message in str(caught.value)


def test_a_pyodide_folder_must_be_complete_and_the_pinned_version(tmp_path):
    version = pyodide_dist.pinned_version(ROOT)
    assert version == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert pyodide_dist.self_hosted_dist(version, environ={}) is None
    with pytest.raises(pyodide_dist.PyodideDistError, match="missing package.json, pyodide.js"):
        pyodide_dist.self_hosted_dist(version, environ={"PYODIDE_DIST": str(tmp_path)})
    for name in pyodide_dist.REQUIRED:
        (tmp_path / name).write_text("{}")
    (tmp_path / "package.json").write_text('{"version": "0.1.0"}')
    with pytest.raises(pyodide_dist.PyodideDistError, match=f"holds Pyodide 0.1.0, but package.json pins {version}"):
        pyodide_dist.self_hosted_dist(version, environ={"PYODIDE_DIST": str(tmp_path)})
    (tmp_path / "package.json").write_text(json.dumps({"version": version}))
    assert pyodide_dist.self_hosted_dist(version, environ={"PYODIDE_DIST": str(tmp_path)}) == tmp_path
    assert pyodide_dist.cdn_url(version) == f"https://cdn.jsdelivr.net/pyodide/v{version}/full/"


def test_after_a_build_the_process_runs_kinds_with_its_own_engine():
    # A fresh interpreter whose engine has loaded no kind yet, as in a test session that starts with browser tests.
    script = """import sys
import engine.examples as mine
from layerwise_build.parts import widgets as widgets_part
widgets_part._build["name"] = "engine"  # what on_config does
widgets_part._before_build.update(widgets_part._take_package_modules("engine"))
import engine.examples  # the build's fresh engine
widgets_part.on_shutdown()
print(mine.get_kind('linear').name, sys.modules['engine.examples'] is mine)"""
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert shown.stdout.split() == ["linear", "True"], shown.stderr


def test_a_training_run_reads_as_one_not_as_a_layers_forward():
    html = page_html('```widget kind="training"\n```\n')
    captions = re.findall(r"<figcaption><code>(\w+)</code> <span class=\"lw-shape\">([^<]*)</span>", html)
    inputs = dict(captions[:6])
    assert inputs == {"steps": "", "batch_size": "", "lr": "", "warmup_steps": "", "grad_clip": "", "seed": ""}
    assert dict(captions[6:]) == {"val_loss": "(6,)", "lr_used": "(6,)"}  # 60 steps, validated after 10, 20, ... 60
    assert re.findall(r"<h3>([^<]*)</h3>", html) == ["Measured along the run"]  # not "Intermediate steps", "Forward"


def test_a_kind_may_rename_only_the_groups_that_exist():
    from engine.errors import LayerwiseError
    from engine.examples.kind import Kind
    with pytest.raises(LayerwiseError, match="unknown output group 'result'"):
        Kind("x", "X", (), (), lambda: None, group_titles={"result": "Result"})
