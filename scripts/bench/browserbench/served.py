"""A site served on 127.0.0.1 for one benchmark run: one already built, or the site built for the run."""
import contextlib
import tempfile
from pathlib import Path

from layerwise_build.livewidgets.serve import start_server
from layerwise_build.livewidgets.sitebuild import build_site

MKDOCS_YML = Path(__file__).resolve().parents[3] / "mkdocs.yml"


@contextlib.contextmanager
def served(root):
    """Yields the URL ``root`` is served at, on a free port, until the block ends."""
    server = start_server(root)
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def built_and_served(pyodide_dist, strict=False):
    """Yields ``(root, url)``: the site self-hosting ``pyodide_dist``, built into a temporary ``root`` and served at
    ``url``. The server starts first, on an empty folder, because the site's URL (its port) goes into the build."""
    with tempfile.TemporaryDirectory(prefix="layerwise-bench-") as folder:
        root = Path(folder) / "site"
        with served(root) as url:
            build_site(MKDOCS_YML, root, url, pyodide_dist, strict=strict)
            yield root, url
