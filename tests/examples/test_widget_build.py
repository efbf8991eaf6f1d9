"""The build side of the widgets: the ```widget fence, the engine wheel and the Pyodide folder check."""
import base64
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import widgets_hook  # noqa: E402
from livewidgets import pyodide_dist, render, wheel  # noqa: E402


def page_html(text):
    """Render Markdown with the widget fence the way the hook registers it, as page "x.md"."""
    widgets_hook._build.update(render=render, page="x.md", counts={})
    fence = {"name": "widget", "class": "widget", "format": widgets_hook._format_widget,
             "validator": widgets_hook._validate_widget}
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


def test_the_engine_wheel_is_cached_by_content_and_valid(tmp_path):
    package = tmp_path / "engine"
    (package / "examples").mkdir(parents=True)
    (package / "__init__.py").write_text("A = 1\n")
    (package / "examples" / "__init__.py").write_text("")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.pyc").write_bytes(b"stale")
    first, tag = wheel.build_wheel(package, tmp_path / "cache")
    again, same_tag = wheel.build_wheel(package, tmp_path / "cache")
    assert (again, same_tag) == (first, tag) and first.name == "layerwise-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
        assert "engine/__init__.py" in names and "engine/examples/__init__.py" in names
        assert not any("__pycache__" in n for n in names)
        record = archive.read("layerwise-0.1.0.dist-info/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if digest:  # every file but RECORD itself carries its sha256 and size
                data = archive.read(name)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == f"sha256={expected}" and int(size) == len(data)
    (package / "__init__.py").write_text("A = 2\n")
    changed, new_tag = wheel.build_wheel(package, tmp_path / "cache")
    assert new_tag != tag and changed != first


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


def test_with_a_matching_interpreter_the_wheel_carries_bytecode_that_is_used(tmp_path):
    # This interpreter stands in for Pyodide's: the mechanism is the same for python3.13 and cpython-313 files.
    minor = "%d.%d" % sys.version_info[:2]
    python = wheel.matching_python(minor, sys.executable)
    assert python == sys.executable and wheel.matching_python("2.7", sys.executable) is None
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("ANSWER = 42\n")
    built, tag = wheel.build_wheel(package, tmp_path / "cache", python)
    assert tag.endswith("-pyc")
    unpacked = tmp_path / "site-packages"
    with zipfile.ZipFile(built) as archive:
        archive.extractall(unpacked)
    tag_name = sys.implementation.cache_tag
    assert (unpacked / "engine" / "__pycache__" / f"__init__.{tag_name}.pyc").is_file()
    # Unchecked-hash bytecode is used without looking at the source: a changed source goes unnoticed.
    (unpacked / "engine" / "__init__.py").write_text("raise SystemExit('the source was compiled again')\n")
    shown = subprocess.run([sys.executable, "-c", "import engine; print(engine.ANSWER)"], cwd=unpacked,
                           capture_output=True, text=True)
    assert shown.stdout.strip() == "42", shown.stderr


def test_after_a_build_the_process_runs_kinds_with_its_own_engine():
    # A fresh interpreter whose engine has loaded no kind yet, as in a test session that starts with browser tests.
    script = f"""import sys; sys.path.insert(0, {str(ROOT / 'scripts')!r})
import engine.examples as mine
import widgets_hook
widgets_hook._before_build.update(widgets_hook._take_engine_modules())  # what on_config does
import engine.examples  # the build's fresh engine
widgets_hook.on_shutdown()
print(mine.get_kind('linear').name, sys.modules['engine.examples'] is mine)"""
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert shown.stdout.split() == ["linear", "True"], shown.stderr
