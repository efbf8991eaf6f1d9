"""Site test fixtures: one strict build of the real site per session, and a way to build small fixture sites."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # crosslink_harness
from crosslink_harness import REPO, mkdocs_build  # noqa: E402

# The fixture project is input to the cross-linker, not part of the suite: its tests/ must not be collected.
collect_ignore = ["fixtures"]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(REPO / "mkdocs.yml", site)
    assert result.returncode == 0, f"strict build of the real site failed:\n{result.stderr[-6000:]}"
    return site
