"""The widgets' part works for a package not named ``engine``: the toy (tests/site/fixtures/project, package ``toy``,
distribution ``toyproject``) ships its own kinds' module ``toy.kinds`` and builds with ``widgets:`` on from
``mkdocs-widgets.yml``; its pages get the widgets pre-rendered with the kind's numbers, and the browser is told the
toy's names."""
import gzip
import json
import re
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from crosslink_harness import FIXTURE, REPO, mkdocs_build

# beside a project's mkdocs.yml, as `npm ci` and scripts/dev.sh put them; widgets/ is the option's browser code
PROJECT_TOOLS = ("node_modules", "package.json", ".venv-pyodide", "widgets")


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("toy") / "project"
    shutil.copytree(FIXTURE, project)
    for name in PROJECT_TOOLS:
        (project / name).symlink_to(REPO / name)
    site = project.parent / "site"
    result = mkdocs_build(project / "mkdocs-widgets.yml", site, environ={"PYODIDE_DIST": ""})  # Pyodide's CDN
    assert result.returncode == 0, result.stderr
    return site


def _output_cells(html, widget_id):
    """The output cells' text of one widget, from its opening tag to the next widget's (input cells hold inputs)."""
    start = html.index(f'data-widget-id="{widget_id}"')
    end = html.find('<div class="lw-widget"', start)
    return re.findall(r"<td>([^<]*)</td>", html[start:end if end != -1 else None])


def test_the_toy_kind_is_prerendered_with_its_numbers(toy_site):
    html = (toy_site / "index.html").read_text()
    assert html.count('class="lw-widget"') == 2
    assert '<span class="lw-title">Scaling a vector</span>' in html
    # y = s * x, two decimals: the defaults x = (1, -2, 0.5), s = 3; then x = (4, 1), s = 0.5
    assert _output_cells(html, "scale-1") == ["3.00", "-6.00", "1.50"]
    assert _output_cells(html, "halved") == ["2.00", "0.50"]
    assert re.findall(r'readonly value="([^"]*)"', html)[:4] == ["1", "-2", "0.5", "3"]  # the inputs, as written
    assert "y[i0] = 0.50 * 4.00 = 2.00" in html


def test_the_browser_is_given_the_toys_names(toy_site):
    config = (toy_site / "assets" / "layerwise" / "engine-config.js").read_text()
    engine_config = json.loads(re.search(r"engineConfig: (\{.*\})\}\);", config).group(1))
    assert engine_config["distribution"] == "toyproject"
    assert engine_config["modules"] == {"kinds": "toy.kinds"}
    lock = json.loads((toy_site / "assets" / "layerwise" / engine_config["lockFile"]).read_text())
    assert lock["packages"]["toyproject"]["depends"] == ["numpy"]
    wheel, = (toy_site / "wheels").glob("*.whl")
    assert wheel.name == "toyproject-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        assert {"toy/__init__.py", "toy/kinds.py"} <= set(archive.namelist())


@pytest.mark.parametrize("kinds, message", [
    ("toy.nowhere", "option 'kinds': there is no module toy.nowhere: neither */toy/nowhere.py nor"),
    ("engine.examples", "option 'kinds': the module engine.examples is not in the package 'toy'"),
])
def test_a_kinds_module_that_is_not_there_stops_the_build_naming_it(tmp_path, kinds, message):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    (project / "widgets").symlink_to(REPO / "widgets")
    config = project / "mkdocs-widgets.yml"
    config.write_text(config.read_text().replace("kinds: toy.kinds", f"kinds: {kinds}"))
    result = mkdocs_build(config, tmp_path / "out")
    assert result.returncode != 0
    assert re.search(re.escape(message).replace(r"\*", ".*"), result.stderr), result.stderr


def test_the_browser_is_given_a_memory_snapshot_of_the_pinned_runtime(toy_site):
    """The snapshot the workers restore is gzipped and carries Pyodide's snapshot header with the build id of the
    pinned loader (pyodide.js): a snapshot of another build would be refused by the worker (test_snapshot.py)."""
    config = (toy_site / "assets" / "layerwise" / "engine-config.js").read_text()
    name = json.loads(re.search(r"engineConfig: (\{.*\})\}\);", config).group(1))["snapshot"]
    memory = gzip.decompress((toy_site / "assets" / "layerwise" / name).read_bytes())
    magic, header_size, _, _ = struct.unpack_from("<4I", memory)
    build_id = "".join(f"{word:08x}" for word in struct.unpack_from("<8I", memory, 16))
    loader = (REPO / "node_modules" / "pyodide" / "pyodide.js").read_text()
    assert magic == 1886286592  # Pyodide 0.29's snapshot magic number
    assert f'BUILD_ID:"{build_id}"' in loader
    # after the header, the interpreter's whole memory: a whole number of 64 KiB wasm pages
    assert (len(memory) - header_size) % 65536 == 0 and len(memory) - header_size >= 16 * 2**20
