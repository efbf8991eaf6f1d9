"""`dev.sh check PAGE` picks whole test files from what the page uses, suite-wide ones included."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "tools"))
import check_page  # noqa: E402

PAGE = '''# Rotary positions

```implementation symbol="engine.rope.rope_forward"
```

```widget kind="rope"
```

```exercise id="rope-forward"
```
'''


@pytest.fixture()
def tree(tmp_path):
    for path, text in {"docs/layers/rope.md": PAGE, "tests/engine/test_rope_layer.py": "from engine.rope import x\n",
                       "tests/engine/test_model.py": "from engine import model\n",
                       "tests/examples/test_rope.py": "", "tests/pages/test_rope_page.py": "",
                       "tests/exercises/test_programs.py": ""}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def test_the_page_is_found_by_any_of_its_names(tree):
    for name in ("rope", "layers/rope.md", "docs/layers/rope.md"):
        assert check_page.page_file(name, tree / "docs") == tree / "docs/layers/rope.md"
    with pytest.raises(SystemExit, match="no page 'ropes'"):
        check_page.page_file("ropes", tree / "docs")


def test_what_the_page_uses_comes_from_its_fences():
    assert check_page.uses(PAGE) == ({"rope"}, {"rope"}, {"rope-forward"})


def test_whole_files_are_chosen_with_the_suite_wide_ones(tree):
    files = [str(p.relative_to(tree)) for p in check_page.test_files(tree / "docs/layers/rope.md", root=tree)]
    assert files == ["tests/exercises", "tests/pages/test_rope_page.py", "tests/examples/test_rope.py",
                     "tests/engine/test_rope_layer.py"]  # the engine test importing another module is left out
