"""Pre-render one widget to HTML in CPython with the kinds' module (the option ``kinds``, ``engine.examples``), so
the page is complete before any JavaScript runs.

The markup is the contract with `widgets/widget-render.js` (and `widget.js`), which makes the cells editable and redraws the outputs from
the worker's JSON in the same structure (`lw-*` classes). Every text goes through ``escape``; the only markup taken
as is is the plots' SVG, which the kinds make (`engine.examples.svg`).
"""
import json
from html import escape

# The keys of the cells, shown under every widget's inputs to readers with a mouse or a keyboard (hidden on a touch
# screen and without JavaScript by widgets.css). Screen readers hear the fuller words of widget-keys.js as every
# grid's description, so this copy is hidden from them.
KEYS = ("Click a value and type to replace it · arrow keys move between cells · Enter goes down · F2 edits in place · "
        "Esc restores · Tab leaves the matrix")


def widget_html(kinds, kind_name, widget_id, overrides):
    """HTML for the widget ``widget_id`` showing kind ``kind_name`` of the module ``kinds`` with ``overrides`` merged
    over its defaults."""
    kind = kinds.get_kind(kind_name)
    inputs = {**kind.defaults(), **overrides}
    result = kind.run(inputs)  # raises LayerwiseError for inputs the engine rejects: the build fails loudly
    spec = kind.spec()
    dims = spec["dims"]
    parts = [
        f'<div class="lw-widget" id="widget-{escape(widget_id)}" data-widget-id="{escape(widget_id)}" '
        f'data-kind="{escape(kind_name)}" data-spec="{_attr_json(spec)}" data-start="{_attr_json(inputs)}">',
        '<div class="lw-bar">',
        f'<span class="lw-title">{escape(kind.title)}</span>',
        '<span class="lw-state" data-state="static">static</span>',
        # inert until widget.js wires them; written here so the bar has its final size before the script runs
        '<button type="button" class="lw-button lw-reset" disabled>Reset</button>',
        '<button type="button" class="lw-button lw-copy" disabled>Copy link</button>',
        '</div>',
    ]
    if kind.description:
        parts.append(f'<p class="lw-description">{escape(kind.description)}</p>')
    parts.append('<div class="lw-inputs" data-search-exclude>')  # numbers would flood the search results
    for operand in spec["inputs"]:
        parts.append(_input_figure(operand, inputs[operand["name"]], dims, kinds.format_input))
    # Not a live region: the page's one announcer speaks once typing pauses (widgets/widget-announce.js)
    parts.append(f'</div><p class="lw-keys" aria-hidden="true">{escape(KEYS)}</p><p class="lw-message"></p>')
    parts.append(results_html(result, dims, spec["groups"]))
    parts.append('</div>')
    return "".join(parts)


def results_html(result, dims, groups):
    """The output half of a widget (blocks by group, headed by ``groups``' titles; arithmetic, notes, gradient check,
    plots)."""
    # Each part, not the container, is kept out of the search index: mkdocs-material's indexer ends an exclusion at
    # the first closing tag of the excluded element's kind, and the container holds divs of its own.
    hidden = "data-search-exclude"
    parts = ['<div class="lw-results">']
    for group, title in groups.items():
        blocks = [b for b in result["blocks"] if b["group"] == group]
        if blocks:
            parts.append(f'<section class="lw-group" data-group="{group}" {hidden}><h3>{title}</h3>'
                         '<div class="lw-row">')
            parts.extend(_output_figure(b, dims) for b in blocks)
            parts.append('</div></section>')
    if result["arithmetic"]:
        parts.append(f'<p class="lw-arith" {hidden}>{escape(result["arithmetic"])}</p>')
    parts.extend(f'<p class="lw-note" {hidden}>{escape(note)}</p>' for note in result["notes"])
    if result["gradcheck"]:
        ok = "true" if result["gradcheck"]["ok"] else "false"
        parts.append(f'<p class="lw-gradcheck" data-ok="{ok}" {hidden}>{escape(result["gradcheck"]["text"])}</p>')
    for plot in result["plots"]:
        parts.append(f'<figure class="lw-plot" {hidden}><figcaption>{escape(plot["title"])}</figcaption>'
                     f'{plot["svg"]}</figure>')
    parts.append('</div>')
    return "".join(parts)


def _attr_json(value):
    return escape(json.dumps(value, separators=(",", ":"), allow_nan=False), quote=True)


def _shape_text(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _caption(name, shape, label):
    # a single number needs no shape: "()" read as part of its label (the span stays for widget-render.js)
    shape_text = _shape_text(shape) if shape else ""
    return (f'<figcaption><code>{escape(name)}</code> <span class="lw-shape">{shape_text}</span> '
            f'<span class="lw-label">{escape(label)}</span></figcaption>')


def _corner(scope, name):
    """The header with no visible text (a matrix's corner, a list's row start), named for screen readers."""
    return f'<th scope="{scope}" class="lw-corner"><span class="lw-sr-only">{escape(name)}</span></th>'


def _grid(name, rows, dims, dim_info, cell):
    """A table: column headers from the last dim's prefix, row headers from the first (for matrices)."""
    if len(dims) == 0:
        return f'<table class="lw-grid"><tbody><tr>{cell(0, 0, rows)}</tr></tbody></table>'
    matrix = rows if len(dims) == 2 else [rows]
    col_prefix = dim_info[dims[-1]]["prefix"]
    head = "".join(f'<th scope="col">{escape(col_prefix)}{c}</th>' for c in range(len(matrix[0])))
    body = []
    for r, row in enumerate(matrix):
        row_head = (f'<th scope="row">{escape(dim_info[dims[0]]["prefix"])}{r}</th>' if len(dims) == 2
                    else _corner("row", name))
        body.append("<tr>" + row_head + "".join(cell(r, c, v) for c, v in enumerate(row)) + "</tr>")
    return (f'<table class="lw-grid"><thead><tr>{_corner("col", name)}{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _cell_label(name, dims, dim_info, r, c):
    """A cell's name with the grid's own 0-based headers: "x t0, i1", "gamma i2", "p" (as widget-render.js)."""
    if not dims:
        return name
    col = f'{dim_info[dims[-1]]["prefix"]}{c}'
    return f'{name} {dim_info[dims[0]]["prefix"]}{r}, {col}' if len(dims) == 2 else f"{name} {col}"


def _input_figure(operand, value, dim_info, format_input):
    name, dims = operand["name"], operand["dims"]

    def cell(r, c, v):
        # a text input is an ordinary text field (widget-render.js draws it the same way)
        css, mode, text = ("lw-cell lw-text", "text", escape(v)) if operand.get("text") else ("lw-cell", "decimal",
                                                                                          format_input(v))
        return (f'<td><input class="{css}" type="text" inputmode="{mode}" readonly value="{text}" '
                f'aria-label="{escape(_cell_label(name, dims, dim_info, r, c))}"></td>')

    shape = _shape_of(value, len(dims))
    return (f'<figure class="lw-matrix lw-input" data-name="{escape(name)}">{_caption(name, shape, operand["label"])}'
            f'{_grid(name, value, dims, dim_info, cell)}{_resize_html(name, dims, shape, dim_info)}</figure>')


def _resize_html(name, dims, shape, dim_info):
    """The "+ row" / "− row" buttons widget-render.js's renderResizers makes, written inert at their size, so a widget
    going live moves nothing (widgets.css hides them without JavaScript, where they cannot work)."""
    buttons = []
    for axis, symbol in enumerate(dims):
        dim = dim_info[symbol]
        if not dim["resizable"]:
            continue
        word = ("row", "column")[axis] if len(dims) == 2 else "entry"
        for label in ("+", "\u2212"):
            buttons.append(f'<button type="button" class="lw-button lw-size" disabled>{label} {word}</button>')
    return f'<div class="lw-resize">{"".join(buttons)}</div>' if buttons else ""


def _output_figure(block, dim_info):
    def cell(r, c, text):
        return f"<td>{escape(text)}</td>"

    nonfinite = "" if block["finite"] else ' data-nonfinite="true"'
    return (f'<figure class="lw-matrix lw-output" data-name="{escape(block["name"])}"{nonfinite}>'
            f'{_caption(block["name"], block["shape"], block["label"])}'
            f'{_grid(block["name"], block["cells"], block["dims"], dim_info, cell)}</figure>')


def _shape_of(value, ndim):
    shape = []
    for _ in range(ndim):
        shape.append(len(value))
        value = value[0] if value else []
    return shape
