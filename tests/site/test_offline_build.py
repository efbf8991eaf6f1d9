"""The offline part's output (option ``offline: true``): a web app manifest Chromium can install from (a name, icons
that exist at the sizes it names, a start URL inside its scope), icons that are real PNGs of the mark, each page's
head linking them, and a service worker whose list holds every file a reader's pages fetch (the runtime too: the
self-hosted folder, or the CDN's URLs) under a key that names the build; under `mkdocs serve` a removing worker.

The toy project (tests/site/fixtures/project, with widgets, Pyodide from the CDN) is built with the option added;
the real site's build (``built_site``) shows the self-hosted runtime, when PYODIDE_DIST is set, kept too."""
import hashlib
import json
import re
import shutil
import struct
import zlib
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from crosslink_harness import FIXTURE, PUBLISHED_URL, REPO, mkdocs_build
from layerwise_build.livewidgets.sitebuild import build_site

PROJECT_TOOLS = ("node_modules", "package.json", "package-lock.json", ".venv-pyodide", "widgets")  # as npm ci puts them
TOY_URL = "https://example.org/toy/"
OFFLINE = re.compile(r"^self\.LAYERWISE_OFFLINE = (\{.*?\});\n", re.S)
INDIGO, WHITE = (0x40, 0x51, 0xb5), (0xff, 0xff, 0xff)  # mkdocs-material's default primary, the default scheme's page


def _toy_project(folder):
    project = folder / "project"
    shutil.copytree(FIXTURE, project)
    for name in PROJECT_TOOLS:
        (project / name).symlink_to(REPO / name)
    config = project / "mkdocs-widgets.yml"
    config.write_text(config.read_text().replace("kinds: toy.kinds", "kinds: toy.kinds\n      offline: true")
                      + f"site_url: {TOY_URL}\n")
    return config


@pytest.fixture(scope="module")
def toy_offline(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("toy-offline")
    config = _toy_project(folder)
    result = mkdocs_build(config, folder / "site", environ={"PYODIDE_DIST": ""})  # Pyodide's CDN
    assert result.returncode == 0, result.stderr
    return folder / "site"


def offline_list(site):
    found = OFFLINE.match((site / "sw.js").read_text())
    assert found, "sw.js does not start with the build's list"
    return json.loads(found[1])


def read_png(data):
    """(width, height, rows of RGBA tuples) of an 8-bit RGBA PNG whose rows are unfiltered, every CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        length, = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        crc, = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind}"
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height, depth, colour_type = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (depth, colour_type) == (8, 6) and b"IEND" in chunks
    raw = zlib.decompress(chunks[b"IDAT"])
    stride = 1 + 4 * width
    assert len(raw) == height * stride
    rows = []
    for y in range(height):
        row = raw[y * stride:(y + 1) * stride]
        assert row[0] == 0  # no filter
        rows.append([tuple(row[1 + 4 * x:5 + 4 * x]) for x in range(width)])
    return width, height, rows


def test_the_manifest_names_the_site_with_icons_and_a_start_url_in_its_scope(toy_offline):
    manifest = json.loads((toy_offline / "manifest.webmanifest").read_text())
    assert manifest["name"] == "Toy with widgets" and manifest["display"] == "standalone"
    assert manifest["scope"] == "/toy/" and manifest["start_url"].startswith(manifest["scope"])
    assert manifest["theme_color"] == "#4051b5" and manifest["background_color"] == "#ffffff"
    sizes = set()
    for icon in manifest["icons"]:
        path = urlsplit(urljoin(TOY_URL, icon["src"])).path.removeprefix("/toy/")
        width, height, _ = read_png((toy_offline / path).read_bytes())
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        sizes.add(width)
    assert {192, 512} <= sizes  # Chromium's installability wants one of at least 144 px


def test_the_icon_is_the_mark_in_the_themes_colours(toy_offline):
    """Worked from the drawing: corners outside the rounded square are clear, its edge between the bars is the
    primary colour, and the middle of the middle bar (half way down, the bars' colour) is the page's."""
    width, height, rows = read_png((toy_offline / "assets/layerwise/icon-192.png").read_bytes())
    assert rows[0][0][3] == 0 and rows[height - 1][width - 1][3] == 0
    assert rows[height // 2][width // 20] == INDIGO + (255,)
    assert rows[height // 2][width // 2] == WHITE + (255,)
    assert rows[height * 2 // 5][width // 2] == INDIGO + (255,)  # between the first two bars


def test_every_page_links_the_manifest_and_both_palettes_colours(toy_offline):
    page = (toy_offline / "index.html").read_text()
    link, = re.findall(r'<link rel="manifest" href="([^"]+)">', page)
    assert (toy_offline / link).is_file()
    assert '<meta name="layerwise-offline" content="keep">' in page
    assert 'assets/layerwise/offline.js' in page
    not_found = (toy_offline / "404.html").read_text()
    assert '<link rel="manifest" href="/toy/manifest.webmanifest">' in not_found  # served at any address


def test_the_worker_keeps_every_file_with_its_revision_and_the_cdn_runtime(toy_offline):
    offline = offline_list(toy_offline)
    kept = {entry["url"]: entry["revision"] for entry in offline["precache"]}
    files = sorted(p.relative_to(toy_offline).as_posix() for p in toy_offline.rglob("*") if p.is_file())
    expected = [f for f in files if f not in ("sw.js", "sitemap.xml.gz") and not f.endswith(".map")
                and not f.startswith("source/tests/")]
    assert [url for url in kept if "://" not in url] == expected
    for url in expected:
        assert kept[url] == hashlib.sha256((toy_offline / url).read_bytes()).hexdigest()[:20], url
    config = (toy_offline / "assets/layerwise/engine-config.js").read_text()
    cdn = re.search(r'"pyodide": "([^"]+)"', config)[1]
    lock = json.loads((toy_offline / "assets/layerwise" / re.search(r'"lockFile": "([^"]+)"', config)[1]).read_text())
    numpy = lock["packages"]["numpy"]["file_name"]
    assert numpy.startswith("https://")
    runtime = [cdn + name for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")]
    for url in runtime + [numpy]:
        assert url in kept and kept[url] is None, url  # versioned URLs: their own revision
    snapshot = re.search(r'"snapshot": "([^"]+)"', config)[1]
    assert offline["snapshot"] == f"assets/layerwise/{snapshot}" and offline["snapshot"] in kept
    # taken from the HTTP cache: only what never changes under its URL (the runtime, the engine's folder)
    assert set(runtime + [numpy, offline["snapshot"]]) <= set(offline["reusable"])
    assert "index.html" not in offline["reusable"] and "assets/layerwise/offline.js" not in offline["reusable"]
    assert "self.skipWaiting" in (toy_offline / "sw.js").read_text()  # the bundle after the list


def test_another_build_has_another_key(toy_offline, tmp_path):
    config = _toy_project(tmp_path)
    page = config.parent / "widget-docs" / "index.md"
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    result = mkdocs_build(config, tmp_path / "site", environ={"PYODIDE_DIST": ""})
    assert result.returncode == 0, result.stderr
    before, after = offline_list(toy_offline), offline_list(tmp_path / "site")
    assert re.fullmatch(r"[0-9a-f]{16}", after["build"]) and after["build"] != before["build"]
    revisions = {e["url"]: e["revision"] for e in before["precache"]}
    changed = {e["url"] for e in after["precache"] if revisions.get(e["url"]) != e["revision"]}
    assert "index.html" in changed and "assets/layerwise/icon-192.png" not in changed


def test_mkdocs_serve_writes_a_worker_that_removes_itself(tmp_path):
    config = _toy_project(tmp_path)
    site = build_site(config, tmp_path / "served", TOY_URL, None, command="serve")
    worker = (site / "sw.js").read_text()
    assert "LAYERWISE_OFFLINE" not in worker and "registration.unregister()" in worker
    assert '<meta name="layerwise-offline" content="remove">' in (site / "index.html").read_text()


def test_the_real_site_keeps_its_runtime(built_site):
    kept = {entry["url"] for entry in offline_list(built_site)["precache"]}
    config = (built_site / "assets/layerwise/engine-config.js").read_text()
    lock_file = "assets/layerwise/" + re.search(r'"lockFile": "([^"]+)"', config)[1]
    assert lock_file in kept and lock_file in offline_list(built_site)["reusable"]
    assert any(url.endswith(".whl") and url.startswith(lock_file.rsplit("/", 1)[0]) for url in kept)
    runtime = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
    if (built_site / "pyodide").is_dir():  # PYODIDE_DIST: every file of the self-hosted folder
        assert {f"pyodide/{p.name}" for p in (built_site / "pyodide").iterdir()} <= kept
        assert {f"pyodide/{name}" for name in runtime} <= kept
    else:
        cdn = re.search(r'"pyodide": "([^"]+)"', config)[1]
        assert {cdn + name for name in runtime} <= kept
    for page in ("index.html", "layers/layernorm/index.html", "model/build-your-gpt/index.html", "practice/index.html",
                 "sitemap.xml"):  # the theme follows links in place only once it has read the sitemap
        assert page in kept
    assert not any(url.startswith("source/tests/") for url in kept)
    assert any(url.startswith("source/engine/") for url in kept)


def test_the_published_site_is_installable_from_its_path(published_site):
    manifest = json.loads((published_site / "manifest.webmanifest").read_text())
    root = urlsplit(PUBLISHED_URL).path
    assert manifest["scope"] == manifest["start_url"] == root
    assert all(icon["src"].startswith(root) for icon in manifest["icons"])
