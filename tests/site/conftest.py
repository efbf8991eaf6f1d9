"""Site test fixtures: strict builds of the real site (once for the local server, once published under another
URL) per session, and a way to build small fixture sites."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # crosslink_harness
from crosslink_harness import PUBLISHED_URL, REPO, mkdocs_build  # noqa: E402

# The fixture project is input to the cross-linker, not part of the suite: its tests/ must not be collected.
collect_ignore = ["fixtures"]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(REPO / "mkdocs.yml", site)
    assert result.returncode == 0, f"strict build of the real site failed:\n{result.stderr[-6000:]}"
    return site


@pytest.fixture(scope="session")
def published_site(tmp_path_factory) -> Path:
    """The real site built as a copy published at PUBLISHED_URL would be: SITE_URL set, as the README says."""
    site = tmp_path_factory.mktemp("published")
    result = mkdocs_build(REPO / "mkdocs.yml", site, {"SITE_URL": PUBLISHED_URL})
    assert result.returncode == 0, f"strict build with SITE_URL={PUBLISHED_URL} failed:\n{result.stderr[-6000:]}"
    return site
