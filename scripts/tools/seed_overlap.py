"""Runs of words a page shares with the source documents the product was specified from (`../shared/seeds/`).

Facts and numbers carry over from those documents, sentences do not. This finds every run of RUN_WORDS or more
consecutive words that a page's prose shares with a seed, after taking out what may legitimately match: formulas
(display and inline math, code spans, fenced blocks), numbers, inline values, link targets, HTML tags, and the
References section (paper titles). A lone symbol or short name (`$W$`, `$(T, c)$`, `` `dY` ``) stays, as its
letters: the seeds write those as plain words, and a symbol table copied row by row is otherwise invisible. Three sources of text are compared: the Markdown of the pages, the text a reader
sees in the *built* pages (what the build writes: shapes notes, code-and-math captions, widget notes and readouts),
and the exercises' statements and hints (`engine/exercises/`). `tests/pages/test_own_words.py` fails on any run;
`python scripts/tools/seed_overlap.py [seeds folder] [built site folder]` lists them.
"""
import importlib
import json
import pkgutil
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO.parent / "shared" / "seeds"
RUN_WORDS = 8

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,}).*?^(?P=indent)(?P=ticks)[ \t]*$", re.M | re.S)
REFERENCES = re.compile(r"^#{2,}\s*References\b.*?(?=^#{1,2}\s|\Z)", re.M | re.S)
INLINE_VALUE = re.compile(r"\[=.*?=\]")  # numbers computed at build time
SYMBOL = re.compile(r"\$([^$\n]{1,12})\$|`([^`\n]{1,12})`")  # short inline math or code: a symbol, a name
NOT_PROSE = [
    re.compile(r"\$[^$\n]+\$"),          # inline math
    re.compile(r"`[^`\n]+`"),            # code spans
    re.compile(r"\]\([^)\s]*\)"),        # link targets (the link text stays)
    re.compile(r"<[^>\n]+>"),            # HTML tags
    re.compile(r"\{[#.:][^}\n]*\}"),     # attribute lists
    re.compile(r"\\\(.*?\\\)", re.S),      # \( \) math in exercise statements
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


def _symbol_letters(match: re.Match) -> str:
    """A short formula or name as the words it reads as in plain text: `$(T, c)$` -> ` (T, c) `."""
    return " " + re.sub(r"\\[a-zA-Z]+", " ", match.group(1) or match.group(2)) + " "


def prose(markdown: str) -> str:
    """The prose of a page: the Markdown with formulas, code, values, link targets and references blanked out, short
    symbols kept as their letters."""
    text = _blank(markdown, FENCE)
    text = _blank(text, REFERENCES)
    text = _blank(text, INLINE_VALUE)
    text = SYMBOL.sub(_symbol_letters, text)
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
    return text_runs(page, prose(markdown), grams)


def text_runs(page: str, text: str, grams: set[tuple[str, ...]]) -> list[Run]:
    """The maximal runs of RUN_WORDS or more words of plain `text` that also occur in a seed."""
    words = words_with_lines(text)
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


class _ReaderText(HTMLParser):
    """The text of a built page's article that a reader sees as prose: no code, no math, no References section.

    Exercises are left out: their statements and hints are compared from `engine/exercises/` itself.
    """
    SKIP_TAGS = {"script", "style", "pre", "code", "svg", "math", "template"}
    SKIP_CLASSES = {"katex", "katex-display", "headerlink", "lw-exercise"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    BREAKS = {"p", "li", "td", "th", "tr", "div", "h1", "h2", "h3", "h4", "h5", "h6", "br", "summary", "caption",
              "figcaption", "dt", "dd", "table", "ul", "ol", "details"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.in_article, self.skip_depth, self.in_references = [], False, 0, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.in_article = True
        if tag == "h2":
            self.in_references = attrs.get("id") == "references"
        if tag in self.BREAKS:
            self.parts.append("\n")
        if tag in self.VOID:
            return
        classes = set((attrs.get("class") or "").split())
        if self.skip_depth or tag in self.SKIP_TAGS or classes & self.SKIP_CLASSES:
            self.skip_depth += 1

    def handle_endtag(self, tag):
        if tag == "article":
            self.in_article = False
        if tag not in self.VOID and self.skip_depth:
            self.skip_depth -= 1
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.in_article and not self.skip_depth and not self.in_references:
            self.parts.append(data)


def reader_text(html: str) -> str:
    """What a reader of a built page sees as prose (see `_ReaderText`)."""
    parser = _ReaderText()
    parser.feed(html)
    return "".join(parser.parts)


def built_runs(site: Path, grams: set[tuple[str, ...]]) -> list[Run]:
    """Shared runs of every built page under `site`, source listings (`source/`) left out; lines are the text's."""
    return [run for path in sorted(site.rglob("index.html")) if "source" not in path.relative_to(site).parts
            for run in text_runs(str(path.relative_to(site)), reader_text(path.read_text(encoding="utf-8")), grams)]


def exercise_texts() -> dict[str, str]:
    """`exercise module -> its statement, hints and known mistakes' hints`, one paragraph each."""
    exercises = importlib.import_module("engine.exercises")
    texts = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"engine.exercises.{info.name}")
        parts = [module.STATEMENT, *module.HINTS, *(mistake.hint for mistake in module.MISTAKES)]
        texts[info.name] = "\n\n".join(parts)
    return texts


def exercise_runs(grams: set[tuple[str, ...]]) -> list[Run]:
    """Shared runs of every exercise's statement and hints (the page is `engine/exercises/<name>.py`)."""
    return [run for name, text in exercise_texts().items()
            for run in shared_runs(f"engine/exercises/{name}.py", text, grams)]


def all_runs(seeds: Path = SEEDS, docs: Path = REPO / "docs") -> list[Run]:
    """Shared runs of every page under `docs`."""
    grams = seed_runs(seeds)
    return [run for path in sorted(docs.rglob("*.md"))
            for run in shared_runs(str(path.relative_to(docs)), path.read_text(encoding="utf-8"), grams)]


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else SEEDS
    if not folder.is_dir():
        sys.exit(f"no seeds folder at {folder}")
    sys.path.insert(0, str(REPO))  # the engine, for its exercises
    found = [run._replace(page=f"docs/{run.page}") for run in all_runs(folder)]
    found += exercise_runs(seed_runs(folder))
    if len(sys.argv) > 2:
        found += [run._replace(page=f"built {run.page}") for run in built_runs(Path(sys.argv[2]), seed_runs(folder))]
    for run in found:
        print(f"{run.page}:{run.line}: {run.words}")
    print(f"{len(found)} shared run(s) of {RUN_WORDS}+ words")
