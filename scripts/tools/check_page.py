"""Everything that concerns one page, in one pytest run: `bash scripts/dev.sh check PAGE` (PAGE: `rope`,
`layers/rope.md` or `docs/layers/rope.md`).

It runs whole test files, never `-k`: the suite-wide checks (every exercise has its learner programs, the page's
sections and place in the order, the package layout, own words) live in files whose test names do not carry the
page's name. The files are chosen from what the page uses: the engine modules its `implementation` fences show,
its widget kinds and its exercises. The strict build of the real site runs once, inside the tests that need it.
"""
import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The project's root first, as `python -m pytest` has it: otherwise a test folder pytest puts on the path
# (tests/, holding tests/engine/) is found as a namespace package named engine before the editable install's engine.
sys.path[:0] = [str(ROOT), str(ROOT / "scripts" / "build")]

from layerwise_build.crosslink.fences import scan  # noqa: E402

ALWAYS = ("tests/exercises", "tests/engine/test_package.py", "tests/examples/test_kinds.py",
          "tests/site/test_page_sections.py", "tests/site/test_page_order.py", "tests/pages/test_own_words.py",
          "tests/pages/test_cited_tests.py")


def page_file(name, docs):
    """The page's Markdown file; SystemExit naming the places looked in when there is none."""
    stem = name.removeprefix("docs/").removesuffix(".md")
    candidates = [docs / f"{stem}.md"] + sorted(docs.glob(f"*/{stem}.md"))
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise SystemExit(f"check: no page {name!r}: looked for {', '.join(str(c.relative_to(docs.parent)) for c in candidates)}")


def uses(markdown):
    """(engine modules, widget kinds, exercise ids) the page's fences name."""
    modules, kinds, exercise_ids = set(), set(), set()
    for fence in scan(markdown):
        if fence.name == "implementation" and "symbol" in fence.attrs:
            modules.add(fence.attrs["symbol"].split(".")[1])
        elif fence.name == "widget" and "kind" in fence.attrs:
            kinds.add(fence.attrs["kind"])
        elif fence.name == "exercise" and "id" in fence.attrs:
            exercise_ids.add(fence.attrs["id"])
    return modules, kinds, exercise_ids


def test_files(page, root=ROOT):
    """The test files for ``page``: its own page test, the tests of what it uses, and the suite-wide ones."""
    modules, kinds, _ = uses(page.read_text(encoding="utf-8"))
    found = [root / path for path in ALWAYS]
    found += sorted((root / "tests/pages").glob(f"test_{page.stem}_*.py"))
    found += [root / f"tests/examples/test_{kind}.py" for kind in sorted(kinds)]
    mentions = re.compile(r"\bengine\.(" + "|".join(map(re.escape, sorted(modules))) + r")\b|from engine import .*\b("
                          + "|".join(map(re.escape, sorted(modules))) + r")\b") if modules else None
    for test in sorted((root / "tests/engine").glob("test_*.py")):
        if mentions and mentions.search(test.read_text(encoding="utf-8")):
            found.append(test)
    return list(dict.fromkeys(path for path in found if path.exists()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", help="the page: rope, layers/rope.md or docs/layers/rope.md")
    args, pytest_args = parser.parse_known_args(argv)
    page = page_file(args.page, ROOT / "docs")
    files = [str(path.relative_to(ROOT)) for path in test_files(page)]
    modules, kinds, exercise_ids = uses(page.read_text(encoding="utf-8"))
    print(f"check {page.relative_to(ROOT)}: engine modules {sorted(modules) or '-'}, widget kinds "
          f"{sorted(kinds) or '-'}, exercises {sorted(exercise_ids) or '-'}")
    print("running:", " ".join(files))
    import pytest
    return pytest.main([*files, *pytest_args])


if __name__ == "__main__":
    sys.exit(main())
