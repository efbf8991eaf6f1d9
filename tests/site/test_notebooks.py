"""Every page's notebook, executed as a learner would: in a fresh virtual environment that has only nbclient and
ipykernel, the engine installed by the notebook's own first cell from the site's wheel, served over HTTP.

The site is the one built for PUBLISHED_URL (test_publish.py checks its install URLs). Here it is served from
127.0.0.1, so the one substitution made is in each notebook's first cell: the origin and path PUBLISHED_URL are
replaced by the local server's, the rest of the URL (wheels/<file name>) is left as built. What the example cells
print is then compared number by number with the values the build pre-rendered into the page's HTML.
"""
import importlib.metadata
import json
import math
import re
import subprocess
import sys
import threading
import tomllib
import zipfile
from email.parser import Parser
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import nbformat
import pytest
from crosslink_harness import PUBLISHED_URL

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
WHEEL = f"layerwise-{VERSION}-py3-none-any.whl"
# The fresh environment gets the versions the project's own test extras installed here (from pip's cache, so the
# set-up is quick); NumPy too, so that its numbers are computed by the same NumPy as the page's.
PINNED = [f"{name}=={importlib.metadata.version(name)}" for name in ("nbclient", "ipykernel", "numpy")]
EXAMPLE_CALL = re.compile(r"^result = examples\.run\('(\w+)'", re.M)
BLOCK_HEADER = re.compile(r"^(\w+): .*, shape \([\d, ]*\)$")
# Runs inside the fresh environment: each notebook in its own kernel, in a folder of its own (the exercise cells
# write files), the executed notebook written back; a failing cell is recorded, not raised, so all of them run.
DRIVER = """
import json, sys, pathlib, nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
errors = {}
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.ipynb")):
    notebook = nbformat.read(path, as_version=4)
    work = path.with_suffix("")
    work.mkdir()
    try:
        NotebookClient(notebook, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(work)}}).execute()
    except CellExecutionError as error:
        errors[path.name] = str(error)[-3000:]
    nbformat.write(notebook, path)
print(json.dumps(errors))
"""


@pytest.fixture(scope="module")
def served(published_site):
    """The published site over HTTP on a free local port; yields the URL standing in for PUBLISHED_URL."""
    handler = partial(_QuietHandler, directory=str(published_site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    folder = tmp_path_factory.mktemp("notebook-venv")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    python = folder / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", *PINNED], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return python


@pytest.fixture(scope="module")
def executed(published_site, served, venv, tmp_path_factory):
    """{notebook path under notebooks/: executed notebook}, after checking that none of them failed."""
    work = tmp_path_factory.mktemp("notebooks")
    for path in (published_site / "notebooks").rglob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        install = notebook.cells[1]
        assert install.source.startswith(f"%pip install {PUBLISHED_URL}"), path
        install.source = install.source.replace(PUBLISHED_URL, served, 1)
        target = work / path.relative_to(published_site / "notebooks")
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
    env = {"PATH": f"{venv.parent}:/usr/bin:/bin", "HOME": str(work), "JUPYTER_PLATFORM_DIRS": "1",
           "JUPYTER_DATA_DIR": str(work / ".jupyter"), "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run([str(venv), "-c", DRIVER, str(work)], capture_output=True, text=True, env=env, cwd=work,
                          timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    errors = json.loads(done.stdout.strip().splitlines()[-1])
    assert errors == {}, "\n\n".join(f"{name}:\n{error}" for name, error in errors.items())
    return {path.relative_to(work).as_posix(): nbformat.read(path, as_version=4) for path in work.rglob("*.ipynb")}


def test_the_install_url_names_the_sites_own_pure_wheel(published_site):
    wheel = published_site / "wheels" / WHEEL
    for path in (published_site / "notebooks").rglob("*.ipynb"):
        assert nbformat.read(path, as_version=4).cells[1].source == f"%pip install {PUBLISHED_URL}wheels/{WHEEL}"
    with zipfile.ZipFile(wheel) as archive:
        metadata = Parser().parsestr(archive.read(f"layerwise-{VERSION}.dist-info/METADATA").decode())
        assert "engine/norms.py" in archive.namelist()  # sources, not the Pyodide wheel's bytecode
    assert (metadata["Name"], metadata["Version"]) == ("layerwise", VERSION)


def test_every_notebook_runs_and_installs_the_engine_from_the_site(executed, venv, served, tmp_path):
    assert len(executed) >= 14
    probe = ("import engine, importlib.metadata as m, json; d = m.distribution('layerwise'); "
             "print(json.dumps({'version': d.version, 'file': engine.__file__, "
             "'url': json.loads(d.read_text('direct_url.json'))['url']}))")
    found = json.loads(subprocess.run([str(venv), "-c", probe], capture_output=True, text=True, check=True,
                                      cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}).stdout)
    assert found["version"] == VERSION
    assert Path(found["file"]).is_relative_to(venv.parent.parent)  # the venv's copy, not this work tree's
    assert found["url"] == f"{served}wheels/{WHEEL}"  # pip's record of where it came from (PEP 610)


def test_every_example_prints_the_numbers_the_page_shows(executed, published_site):
    compared = 0
    for name, notebook in executed.items():
        page = _Widgets.of((published_site / name.removesuffix(".ipynb") / "index.html").read_text(encoding="utf-8"))
        printed = [(EXAMPLE_CALL.search(cell.source).group(1), _stdout(cell))
                   for cell in notebook.cells if cell.cell_type == "code" and EXAMPLE_CALL.search(cell.source)]
        assert [kind for kind, _ in printed] == [w["kind"] for w in page], name
        for (kind, text), widget in zip(printed, page):
            blocks = _printed_blocks(text)
            assert list(blocks) == list(widget["blocks"]), f"{name}, {kind}"
            for block, cells in widget["blocks"].items():
                assert _numbers(blocks[block]) == _numbers(cells), f"{name}, {kind}, {block}"
                compared += sum(map(len, cells))
            assert not widget["arithmetic"] or widget["arithmetic"] in text.splitlines(), f"{name}, {kind}"
    assert compared > 500


def test_every_shapes_table_prints_the_pages_sizes(executed, published_site):
    from engine.data import build_vocab, load_corpus

    vocabulary = len(build_vocab(load_corpus()))
    for name, notebook in executed.items():
        page = _Shapes.of((published_site / name.removesuffix(".ipynb") / "index.html").read_text(encoding="utf-8"))
        printed = [[line.rpartition(": ") for line in _stdout(cell).splitlines()]
                   for cell in notebook.cells if cell.cell_type == "code" and cell.source.startswith("# Shapes:")]
        assert len(printed) == len(page), name
        for lines, rows in zip(printed, page):
            assert [n for n, _, _ in lines] == [n for n, _ in rows], name
            for (_, _, shown), (_, default) in zip(lines, rows):
                sizes, letters = _sizes(shown), _sizes(default)
                assert len(sizes) == len(letters), (name, shown, default)
                for size, letter in zip(sizes, letters):
                    if letter == "V":  # the page leaves the vocabulary a letter; the notebook counts the corpus
                        assert size == vocabulary, (name, shown)
                    else:
                        assert size == letter, (name, shown, default)


def test_every_exercise_cell_prints_the_verdict_on_its_starter(executed):
    from engine.exercises import get, grade

    graded = 0
    for name, notebook in executed.items():
        for cell in notebook.cells:
            found = re.search(r"grade\('([\w-]+)', code\.read\(\)\)", cell.source)
            if cell.cell_type == "code" and found:
                result = grade(found.group(1), get(found.group(1)).STARTER)
                assert not result["passed"]
                assert _stdout(cell).splitlines()[0] == result["failure"]["message"], (name, found.group(1))
                graded += 1
    assert graded >= 30


def _stdout(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout")


def _printed_blocks(text):
    """{block name: rows of cell texts} from what ``engine.notebook.example_text`` printed."""
    blocks, current = {}, None
    for line in text.splitlines():
        header = BLOCK_HEADER.match(line)
        if header:
            current = blocks.setdefault(header.group(1), [])
        elif line.startswith("  ") and current is not None:
            current.append(line.split())
        else:
            current = None
    return blocks


def _numbers(rows):
    return [[math.inf if t == "inf" else -math.inf if t == "-inf" else "nan" if t == "nan" else float(t) for t in row]
            for row in rows]


def _sizes(text):
    return [int(s) if s.strip().isdigit() else s.strip() for s in text.strip("()").split(",") if s.strip()]


class _Page(HTMLParser):
    """Reads a built page: a subclass gathers what it finds in ``found``, and text while ``text`` is a list."""

    def __init__(self):
        super().__init__()
        self.found, self.text = [], None

    @classmethod
    def of(cls, html):
        parser = cls()
        parser.feed(html)
        return parser.found

    def handle_data(self, data):
        if self.text is not None:
            self.text.append(data)


class _Widgets(_Page):
    """Each pre-rendered widget of a page: its kind, its output blocks' cells (rows of text) and its arithmetic."""

    def __init__(self):
        super().__init__()
        self.block, self.row, self.in_body = None, None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if "lw-widget" in classes:
            self.found.append({"kind": attrs["data-kind"], "blocks": {}, "arithmetic": ""})
        elif tag == "figure" and "lw-output" in classes:
            self.block = self.found[-1]["blocks"].setdefault(attrs["data-name"], [])
        elif tag == "tbody" and self.block is not None:
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.row = []
            self.block.append(self.row)
        elif (tag == "td" and self.row is not None) or (tag == "p" and "lw-arith" in classes):
            self.text = []

    def handle_endtag(self, tag):
        if tag == "td" and self.text is not None and self.row is not None:
            self.row.append("".join(self.text))
            self.text = None
        elif tag == "p" and self.text is not None:
            self.found[-1]["arithmetic"] = "".join(self.text)
            self.text = None
        elif tag == "tbody":
            self.in_body, self.row = False, None
        elif tag == "figure":
            self.block = None


class _Shapes(_Page):
    """Each shapes table of a page: (tensor, shape under the default config) per row."""

    def __init__(self):
        super().__init__()
        self.row, self.in_shapes = None, False

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if "lw-shapes" in classes:
            self.found.append([])
            self.in_shapes = True
        elif tag == "tr" and self.in_shapes:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.text = []

    def handle_endtag(self, tag):
        if tag == "td" and self.text is not None:
            self.row.append("".join(self.text))
            self.text = None
        elif tag == "tr" and self.row:
            self.found[-1].append((self.row[0], self.row[2]))
            self.row = None
        elif tag == "table":
            self.in_shapes = False
