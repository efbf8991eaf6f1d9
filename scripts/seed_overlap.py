"""Runs of words a page shares with the source documents the product was specified from (`../shared/seeds/`).

Facts and numbers carry over from those documents, sentences do not. This finds every run of RUN_WORDS or more
consecutive words that a page's prose shares with a seed, after taking out what may legitimately match: formulas
(display and inline math, code spans, fenced blocks), numbers, inline values, link targets, HTML tags, and the
References section (paper titles). `tests/pages/test_own_words.py` fails on any run;
`python scripts/seed_overlap.py [seeds folder]` lists them.
"""
import re
import sys
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"
RUN_WORDS = 8

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,}).*?^(?P=indent)(?P=ticks)[ \t]*$", re.M | re.S)
REFERENCES = re.compile(r"^#{2,}\s*References\b.*?(?=^#{1,2}\s|\Z)", re.M | re.S)
NOT_PROSE = [
    re.compile(r"\[=.*?=\]"),            # inline values: numbers computed at build time
    re.compile(r"\$[^$\n]+\$"),          # inline math
    re.compile(r"`[^`\n]+`"),            # code spans
    re.compile(r"\]\([^)\s]*\)"),        # link targets (the link text stays)
    re.compile(r"<[^>\n]+>"),            # HTML tags
    re.compile(r"\{[#.:][^}\n]*\}"),     # attribute lists
]
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


class Run(NamedTuple):
    """A shared run: the page, the line it starts on (1-based) and its words."""
    page: str
    line: int
    words: str


def _blank(text: str, pattern: re.Pattern) -> str:
    """`text` with every match of `pattern` replaced by spaces, newlines kept, so line numbers stay right."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def prose(markdown: str) -> str:
    """The prose of a page: the Markdown with formulas, code, values, link targets and references blanked out."""
    text = _blank(markdown, FENCE)
    text = _blank(text, REFERENCES)
    for pattern in NOT_PROSE:
        text = _blank(text, pattern)
    return text


def words_with_lines(text: str) -> list[tuple[str, int]]:
    """Lower-case words (numbers dropped) with the 1-based line each starts on."""
    out, line, pos = [], 1, 0
    for m in WORD.finditer(text.lower()):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        out.append((m.group(0), line))
    return out


def seed_runs(seeds: Path) -> set[tuple[str, ...]]:
    """Every RUN_WORDS-word run of every seed document."""
    grams = set()
    for path in sorted(seeds.glob("*.txt")):
        words = [w for w, _ in words_with_lines(path.read_text(encoding="utf-8"))]
        grams.update(tuple(words[i:i + RUN_WORDS]) for i in range(len(words) - RUN_WORDS + 1))
    return grams


def shared_runs(page: str, markdown: str, grams: set[tuple[str, ...]]) -> list[Run]:
    """The maximal runs of RUN_WORDS or more words of a page's prose that also occur in a seed."""
    words = words_with_lines(prose(markdown))
    hits = [tuple(w for w, _ in words[i:i + RUN_WORDS]) in grams for i in range(len(words) - RUN_WORDS + 1)]
    runs, i = [], 0
    while i < len(hits):
        if not hits[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(hits) and hits[j + 1]:
            j += 1
        span = words[i:j + RUN_WORDS]
        runs.append(Run(page, span[0][1], " ".join(w for w, _ in span)))
        i = j + 1
    return runs


def all_runs(seeds: Path = SEEDS, docs: Path = REPO / "docs") -> list[Run]:
    """Shared runs of every page under `docs`."""
    grams = seed_runs(seeds)
    return [run for path in sorted(docs.rglob("*.md"))
            for run in shared_runs(str(path.relative_to(docs)), path.read_text(encoding="utf-8"), grams)]


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else SEEDS
    if not folder.is_dir():
        sys.exit(f"no seeds folder at {folder}")
    found = all_runs(folder)
    for run in found:
        print(f"docs/{run.page}:{run.line}: {run.words}")
    print(f"{len(found)} shared run(s) of {RUN_WORDS}+ words")
