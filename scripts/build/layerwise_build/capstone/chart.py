"""The loss chart of "Build your GPT" as SVG: fixed axes (so nothing moves as points arrive), the engine's curve,
and an empty polyline that the page's script fills with the learner's. The geometry travels in data attributes,
so the script maps steps and losses to the same pixels."""
from html import escape

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 36  # margins for tick labels
LOSS_RANGE = (1.5, 4.5)  # ln 60 = 4.09 at the start; a few hundred steps end near 2.5


def _x(step, steps):
    return LEFT + (WIDTH - LEFT - RIGHT) * step / steps


def _y(loss):
    low, high = LOSS_RANGE
    clamped = min(max(loss, low), high)
    return TOP + (HEIGHT - TOP - BOTTOM) * (high - clamped) / (high - low)


def points(losses, steps):
    """``x,y`` pairs of the per-step losses (step 1 first)."""
    return " ".join(f"{_x(i + 1, steps):.1f},{_y(loss):.1f}" for i, loss in enumerate(losses))


def chart_svg(reference, steps, label):
    """The chart with ``reference`` (the engine's per-step losses) drawn for a run of ``steps``."""
    low, high = LOSS_RANGE
    ticks = []
    for loss in (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5):
        y = _y(loss)
        ticks.append(f'<line class="lw-capstone__grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{loss:.1f}</text>')
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        x = _x(fraction * steps, steps)
        ticks.append(f'<text class="lw-capstone__xtick" x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" '
                     f'text-anchor="middle">{round(fraction * steps)}</text>')
    return (f'<svg class="lw-capstone__chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
            f'data-left="{LEFT}" data-right="{WIDTH - RIGHT}" data-top="{TOP}" data-bottom="{HEIGHT - BOTTOM}" '
            f'data-low="{low}" data-high="{high}" data-steps="{steps}">'
            + "".join(ticks)
            + f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 4}" text-anchor="middle">step</text>'
            f'<polyline class="lw-capstone__reference" points="{points(reference, steps)}"/>'
            '<polyline class="lw-capstone__yours" points=""/></svg>')
