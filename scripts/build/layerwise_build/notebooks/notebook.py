"""A page's notebook, made with nbformat from its outline (``outline.py``): the title and every section heading with
its first sentence, a first cell that installs the engine from the site, each live example as a call of the engine
on the example's inputs, each shapes table computed from ``GPTConfig``, and each exercise as its statement, a
starter cell and a cell that grades it with the exercises' ``grade`` (``engine.exercises.grade``).

What the cells print comes from the package's ``notebook`` module (``engine.notebook``), which formats the same
result dicts the page's widgets and practice feedback show. The modules are the plugin's options
(:class:`ProjectModules`). Cell ids are numbered, so the same page always gives the same file.
"""
from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass
from typing import Callable

from nbformat import v4

from ..crosslink.fences import Fence
from ..crosslink.shapes import LETTERS, ShapeError, letter_values, shape_rows
from ..practice.fence import KIND_LABELS

from .outline import Heading, Sentence, outline

_LINK = re.compile(r"(\]\()([^)\s]+)(\))")  # a Markdown link's target: [text](target)
_INLINE_MATH = re.compile(r"\\\((.+?)\\\)")  # the exercises' \( \) math; Jupyter and Colab read $ $
# The letters of the shapes tables that are no field of GPTConfig (crosslink.shapes.letter_values gives them too)
DERIVED_SIZES = {
    "hs": "d // H",
    "B": "settings.batch_size",
    "V": "len(data.build_vocab(data.load_corpus()))",
}
V_COMMENT = "the page leaves V a letter, since it depends on the corpus; here: the Moby-Dick chapters shipped with the engine"


@dataclass(frozen=True)
class PageSite:
    """Where a page lives on the site, for the notebook's links and its install cell."""
    url: str  # the page's absolute URL
    wheel_url: str  # the engine's pure wheel on the site
    anchors: list[tuple[str, str]]  # (title, id) of the page's headings, in order (mkdocs' table of contents)
    resolve: Callable[[str], str]  # a Markdown link target of the page -> an absolute URL


@dataclass(frozen=True)
class ProjectModules:
    """The modules the notebook's cells import, named by the plugin's options."""
    package: str  # engine: its notebook (the cells' text), config (GPTConfig), train (TrainSettings) and data
    kinds: str  # engine.examples: run(kind, inputs)
    practice: str | None  # engine.exercises: grade(id, source); None without practice

    def imported(self, role):
        return importlib.import_module(getattr(self, role))

    def package_module(self, name):
        return importlib.import_module(f"{self.package}.{name}")


def _from_import(module):
    """``from engine import examples`` for ``engine.examples``: the cells call it by its last name."""
    parent, _, leaf = module.rpartition(".")
    return f"from {parent} import {leaf}" if parent else f"import {leaf}"


def page_notebook(markdown: str, site: PageSite, modules: ProjectModules):
    """The notebook of the page whose Markdown (inline values filled in) is ``markdown``."""
    items = outline(markdown)
    if not items or not (isinstance(items[0], Heading) and items[0].level == 1):
        raise ValueError("the page does not start with its title (# Title)")
    intro = items[1].text if len(items) > 1 and isinstance(items[1], Sentence) else ""
    parts = {item.name for item in items if isinstance(item, Fence)}
    cells = [v4.new_markdown_cell(_title(items[0].text, _links(intro, site), site, modules)),
             v4.new_code_cell(f"%pip install {site.wheel_url}"), v4.new_code_cell(_imports(parts, modules))]
    anchors, sizes_given = list(site.anchors), False
    for item in items[2 if intro else 1:]:
        if isinstance(item, Heading):
            link = _anchor(item.text, anchors)
            title = f"[{_links(item.text, site)}]({site.url}#{link})" if link else _links(item.text, site)
            cells.append(v4.new_markdown_cell(f"{'#' * item.level} {title}"))
        elif isinstance(item, Sentence):  # right after its heading's cell
            cells[-1].source += "\n\n" + _links(item.text, site)
        elif item.name == "widget":
            cells.extend(_example_cells(item, modules))
        elif item.name == "shapes":
            if not sizes_given:
                cells.append(v4.new_code_cell(_sizes(modules)))
                sizes_given = True
            shapes = _shapes(item, modules)
            if shapes:
                cells.append(v4.new_code_cell(shapes))
        else:
            cells.extend(_exercise_cells(item.attrs["id"], modules))
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number}"
    return v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })


def _title(text, intro, site, modules):
    graded = f", and its exercises are graded by `{modules.practice}.grade`," if modules.practice else ""
    return (f"# {text}\n\n{intro}\n\n" if intro else f"# {text}\n\n") + (
        f"This is the page [{text}]({site.url}) of Layerwise as a notebook: its live examples call the engine"
        f"{',' if graded else ' and'} its tensor shapes are computed from `GPTConfig`{graded} as "
        f"on the page. The first cell installs the engine from the site (in Jupyter, JupyterLite or Colab).")


def _anchor(text, anchors):
    """The id of the next heading of the table of contents with the same words as ``text`` (None if none)."""
    words = _words(text)
    for i, (title, anchor) in enumerate(anchors):
        if _words(title) == words:
            del anchors[: i + 1]
            return anchor
    return None


def _words(text):
    return re.sub(r"\W+", "", re.sub(r"\{[^}]*\}|\]\([^)]*\)", "", text)).lower()


def _links(text, site):
    """``text`` with every relative link target made absolute, so it works outside the site."""
    return _LINK.sub(lambda m: m.group(1) + site.resolve(m.group(2)) + m.group(3), text)


def _imports(parts, modules):
    lines = []
    if "widget" in parts:
        lines.append(_from_import(modules.kinds))
    if "exercise" in parts:
        lines.append(f"from {modules.practice} import grade")
    shown = [name for part, name in (("widget", "example_text"), ("exercise", "verdict_text")) if part in parts]
    if shown:
        lines.append(f"from {modules.package}.notebook import {', '.join(shown)}")
    return "\n".join(lines) or f"import {modules.package}"


def _example_cells(fence, modules):
    kind = modules.imported("kinds").get_kind(fence.attrs["kind"])
    inputs = {**kind.defaults(), **(json.loads(fence.body) if fence.body.strip() else {})}  # as the page's widget
    arguments = "".join(f"    {name!r}: {value!r},\n" for name, value in inputs.items())
    return [
        v4.new_markdown_cell(f"**Live example: {kind.title}.** {kind.description}".rstrip()),
        v4.new_code_cell(f"result = {modules.kinds.rpartition('.')[2]}.run({kind.name!r}, {{\n{arguments}}})\n"
                         "print(example_text(result))"),
    ]


def _sizes(modules):
    unknown = {letter for letter, (field, _) in LETTERS.items() if field is None} - set(DERIVED_SIZES)
    if unknown:
        raise ValueError(f"the shapes letter {sorted(unknown)[0]} has no way to compute it in a notebook")
    package = modules.package
    lines = [f"from {package} import data", f"from {package}.config import GPTConfig",
             f"from {package}.train import TrainSettings", "", "config, settings = GPTConfig(), TrainSettings()"]
    for letter, (field, meaning) in LETTERS.items():
        comment = V_COMMENT if letter == "V" else meaning
        lines.append(f"{letter} = {f'config.{field}' if field else DERIVED_SIZES[letter]}  # {comment}")
    return "\n".join(lines)


def _shapes(fence, modules):
    """The cell printing a shapes table; None for a table with an error, which the site part reports with the
    others of the build (stopping here would hide every error after the first)."""
    config, train = modules.package_module("config"), modules.package_module("train")
    try:
        rows = shape_rows(fence.body, letter_values(config.GPTConfig(), train.TrainSettings()))
    except ShapeError:
        return None
    entries = "".join(f"    {name!r}: {symbolic},\n" for name, symbolic, _, _ in rows)
    return (f"# Shapes: {fence.attrs.get('title', '')}\n"
            f"for name, shape in {{\n{entries}}}.items():\n    print(f\"{{name}}: {{shape}}\")")


def _exercise_cells(exercise_id, modules):
    exercise = modules.imported("practice").get(exercise_id)
    path = f"{exercise_id}.py"
    statement = _INLINE_MATH.sub(r"$\1$", exercise.STATEMENT)
    return [
        v4.new_markdown_cell(f"### Practice: {exercise.TITLE} ({KIND_LABELS[exercise.KIND]})\n\n{statement}\n\n"
                             f"Edit the next cell and run it (it saves your code as `{path}`), then run the one "
                             f"after it for the verdict."),
        v4.new_code_cell(f"%%writefile {path}\n{exercise.STARTER.rstrip()}\n"),
        v4.new_code_cell(f"with open({path!r}) as code:\n"
                         f"    print(verdict_text(grade({exercise_id!r}, code.read())))"),
    ]
