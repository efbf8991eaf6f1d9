"""The test folders have no __init__.py, so pytest imports each test file by its basename: two files with one name
in two folders make the whole run stop at collection ("import file mismatch"). Each basename is used once."""
from collections import defaultdict

from crosslink_harness import REPO


def test_every_test_file_has_its_own_basename():
    folders = defaultdict(list)
    for path in (REPO / "tests").rglob("test_*.py"):
        if "fixtures" not in path.relative_to(REPO).parts:
            folders[path.name].append(path.parent.relative_to(REPO).as_posix())
    shared = {name: places for name, places in folders.items() if len(places) > 1}
    assert shared == {}, f"test files sharing a basename (rename one, e.g. test_<kind>_live.py): {shared}"
