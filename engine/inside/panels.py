"""The HTML of the "Inside a trained model" panels, made in Python for the build and for the browser alike.

Every panel has the same size whatever the prompt (``seq_len`` columns, ten rows of probabilities, one chart size),
so an answer replaces a panel without moving anything on the page. Text from the reader goes in escaped.
"""
from html import escape

from ..evaluation import bits_per_character, perplexity
from ..examples.fmt import format_integer, format_number
from ..examples.svg import line_chart

VISIBLE = {" ": "␣", "\n": "↵", "\t": "⇥"}  # characters that would otherwise show as nothing


def shown(character):
    """A character as the panels print it: blanks made visible, markup escaped."""
    return escape(VISIBLE.get(character, character))


def _sr(text):
    return f'<span class="lw-sr-only">{text}</span>'


def tokens_panel(used, ids, seq_len):
    """The prompt as a row of characters over a row of ids, padded to ``seq_len`` columns."""
    pad = seq_len - len(used)
    rows = []
    for label, cells in (("position", [str(p) for p in range(len(used))]),
                         ("character", [shown(ch) for ch in used]),
                         ("id", [format_integer(i) for i in ids])):
        tds = "".join(f"<td>{c}</td>" for c in cells) + '<td class="lw-pad"></td>' * pad
        rows.append(f'<tr><th scope="row">{label}</th>{tds}</tr>')
    return (f'<table class="lw-inside-tokens"><caption>The {len(used)} characters the model reads, with their '
            f'ids</caption>{"".join(rows)}</table>')


def heat_map(weights, used, block, head, seq_len):
    """One head's attention weights as a table: a row per query, a column per key, colour = weight, the exact
    value as each cell's text (read by screen readers, shown on hover and focus by inside.js, which also makes the
    first cell the map's one tab stop and moves along the cells with the arrow keys). Padded to ``seq_len``."""
    n = len(used)
    name = f"Block {block + 1}, head {head + 1}"
    blank = "<td></td>" * (seq_len - n)
    rows = []
    for q in range(n):
        cells = "".join(f'<td style="--w:{w:.3f}"><i>{format_number(w)}</i></td>' for w in weights[q][:n])
        rows.append(f'<tr><th scope="row">{shown(used[q])}</th>{cells}{blank}</tr>')
    rows += ["<tr><td></td>" + "<td></td>" * seq_len + "</tr>"] * (seq_len - n)
    columns = "".join(f'<th scope="col">{shown(ch)}</th>' for ch in used)
    return (f'<figure class="lw-heat-figure"><figcaption>{name}</figcaption>'
            f'<table class="lw-heat" role="grid" aria-label="{name}: attention weights, a row per query, a column '
            f'per key"><thead><tr><td></td>{columns}{blank}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            "</figure>")


def attention_panel(attention, used, seq_len):
    """Every block's heads, one row of heat maps per block."""
    blocks = []
    for b, heads in enumerate(attention):
        maps = "".join(heat_map(weights, used, b, h, seq_len) for h, weights in enumerate(heads))
        blocks.append(f'<div class="lw-heat-block">{maps}</div>')
    return "".join(blocks)


def rms_panel(rms, used):
    """The residual stream's RMS per position, one line per stage, each position named by its character of
    ``used`` (the prompt as the model read it)."""
    positions = list(range(len(rms[0])))
    series = [("after the embedding" if i == 0 else f"after block {i}", positions, values)
              for i, values in enumerate(rms)]
    characters = [(i, VISIBLE.get(ch, ch)) for i, ch in zip(positions, used)]  # line_chart escapes its labels
    return line_chart(series, "character of the prompt", "RMS of the residual stream", x_ticks=characters)


def next_panel(nxt, step=0, character=""):
    """The most likely next characters as bars; at a generation step, the distribution its character came from."""
    caption = (f"Step {step}: the distribution {shown(character)} was drawn from" if step
               else "The most likely next characters")
    rows = "".join(
        f'<tr><th scope="row">{shown(ch)}</th><td class="lw-bar-cell"><span class="lw-prob-bar" '
        f'style="width: {100 * p:.2f}%"></span></td><td class="lw-prob">{format_number(p)}</td></tr>'
        for ch, p in nxt)
    return (f'<table class="lw-inside-next"><caption>{caption}</caption><thead><tr><th scope="col">character</th>'
            f'<th scope="col">bar</th><th scope="col">probability</th></tr></thead><tbody>{rows}</tbody></table>')


def generated(prompt, text):
    """The prompt, greyed, and the characters generated after it so far, as plain text (the box keeps line breaks)."""
    return f'<span class="lw-inside-prompt-text">{escape(prompt)}</span>{escape(text)}'


def generate_panel():
    """Where Generate writes, empty until it runs; two lines high from the start."""
    return '<output id="lw-inside-generated" class="lw-inside-generated" for="lw-inside-prompt"></output>'


def metrics_table(rows):
    """``rows``: (name, loss in nats) pairs -> a table with perplexity and bits per character beside each loss."""
    body = "".join(f'<tr><th scope="row">{escape(name)}</th><td>{format_number(loss)}</td>'
                   f"<td>{format_number(perplexity(loss))}</td><td>{format_number(bits_per_character(loss))}</td></tr>"
                   for name, loss in rows)
    return ('<table class="lw-inside-metrics"><thead><tr><th scope="col">model</th><th scope="col">loss L '
            '(nats per character)</th><th scope="col">perplexity exp(L)</th><th scope="col">bits per character '
            f"L / ln 2</th></tr></thead><tbody>{body}</tbody></table>")


def prompt_panels(used, ids, attention, rms, nxt, config):
    """Every panel that depends on the prompt, by the name of its container on the page."""
    return {"tokens": tokens_panel(used, ids, config.seq_len),
            "attention": attention_panel(attention, used, config.seq_len),
            "rms": rms_panel(rms, used),
            "next": next_panel(nxt)}


def controls(prompt, note, new_characters):
    """The prompt box and the sampling settings; the message line says what the live engine is doing (until it
    runs, that the panels show this prompt)."""
    message = note or "The panels show this prompt; the live engine recomputes them as you type."
    return (
        '<div class="lw-inside-fields">'
        '<label class="lw-inside-prompt-label" for="lw-inside-prompt">Prompt</label>'
        f'<input id="lw-inside-prompt" type="text" value="{escape(prompt, quote=True)}" maxlength="400" '
        'autocomplete="off" spellcheck="false" aria-describedby="lw-inside-message">'
        '<label for="lw-inside-temperature">Temperature</label>'
        '<input id="lw-inside-temperature" type="number" value="1" min="0.05" max="10" step="0.05">'
        '<label for="lw-inside-top-k">Top-k (0 = off)</label>'
        '<input id="lw-inside-top-k" type="number" value="0" min="0" step="1">'
        '<label for="lw-inside-seed">Seed</label>'
        '<input id="lw-inside-seed" type="number" value="0" min="0" step="1">'
        f'<button type="button" id="lw-inside-generate" class="lw-button lw-inside-generate" disabled>Generate {new_characters} '
        "characters</button></div>"
        f'<p id="lw-inside-message" class="lw-inside-message" role="status">{escape(message)}</p>')
