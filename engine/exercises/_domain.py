"""Cases drawn from what an exercise's statement allows (its ``DOMAIN``), fresh on every Run, and shrunk on failure.

An exercise module may declare, beside its hand-worked ``CASES``::

    DOMAIN = Domain(
        sizes={"rows": range(1, 65), "n": range(1, 769)},   # ranges (inclusive of both ends) or tuples of values
        make=lambda d: {"x": d.normal(d.rows, d.n, scale=(1.0, 1e4), offset=(0.0, 1e3)),
                        "eps": d.pick(1e-5, 0.1)},
    )

Write it from the STATEMENT, not from the solution: every shape it allows (up to the model sizes it names, and
leading dimensions of 1), both ends of every value range (huge scores where it promises stability, large offsets,
tiny magnitudes where the result is scale-free), every parameter set to non-default values, exact zeros where they
matter. ``make`` receives a :class:`Draw` and returns the arguments in the order of the function's parameters.
The grader adds non-contiguous views of float inputs by itself (``strided=False`` turns that off).

Each Run draws ``count`` cases from one seed (shown in the result; a ``# seed: N`` line in the learner's code
replays it). A failing drawn case is shrunk: sizes lowered towards their smallest, values made plain (whole
multiples of their scale), keeping each change that still fails, so the feedback shows the smallest failure found.
"""
import math
import re
from typing import Callable, NamedTuple

import numpy as np

from ._spec import Case

SEED_LINE = re.compile(r"^[ \t]*#[ \t]*seed:[ \t]*(\d{1,9})[ \t]*$", re.MULTILINE)
_SIZES, _PICKS, _VALUES = 0, 1, 2  # the three random streams of a case: shrinking one leaves the others as they were
STRIDED_SHARE = 0.3  # of float array inputs given as non-contiguous views


class Domain(NamedTuple):
    """What an exercise's statement allows; see the module docstring."""
    sizes: dict                       # name -> range (drawn, its ends often) or tuple of values (one picked)
    make: Callable                    # Draw -> {argument name: value}, in the order of the function's parameters
    count: int = 8                    # drawn cases per Run
    budget: int = 1 << 15             # the product of a case's sizes is halved down to this (the Run stays fast)
    strided: bool = True              # also give float array inputs as non-contiguous views


class Draw:
    """One drawn case's sizes (as attributes: ``d.n``) and its value draws. ``plain`` makes every value a whole
    multiple of its scale (so mostly -2..2 times it, many exact zeros): what the shrinker tries once sizes are small."""

    def __init__(self, seed, index, sizes, plain=False):
        self.sizes, self.plain = dict(sizes), plain
        self.picks = np.random.default_rng([seed, index, _PICKS])
        self.rng = np.random.default_rng([seed, index, _VALUES])

    def __getattr__(self, name):
        try:
            return self.__dict__["sizes"][name]
        except KeyError:
            raise AttributeError(f"the domain has no size {name!r}") from None

    def pick(self, *options):
        """One of ``options``."""
        return options[int(self.picks.integers(len(options)))]

    def normal(self, *shape, scale=1.0, offset=0.0):
        """Standard normal values times ``scale`` plus ``offset`` (each a number, or a tuple of them: one is picked
        for the whole array). Always an array, also for ``shape == ()``."""
        scale, offset = (self.pick(*v) if isinstance(v, tuple) else v for v in (scale, offset))
        z = self.rng.standard_normal(shape)
        return np.asarray(offset + scale * (np.round(z) if self.plain else z))

    def uniform(self, low, high, *shape):
        """Values uniform in [low, high) (the midpoint when plain)."""
        if self.plain:
            return np.full(shape, (low + high) / 2) if shape else (low + high) / 2
        values = self.rng.uniform(low, high, shape)
        return values if shape else float(values)

    def integers(self, low, high, *shape):
        """Integer ids in [low, high)."""
        return self.rng.integers(low, high, size=shape)

    def generator(self):
        """A seeded ``numpy.random.Generator`` as an input, for functions that draw random numbers."""
        return np.random.default_rng(int(self.rng.integers(2 ** 31)))


class Drawn(NamedTuple):
    """A drawn case and how it was drawn (the shrinker redraws it smaller)."""
    case: Case
    seed: int
    index: int
    sizes: dict
    plain: bool


def seed_of(source):
    """The seed of a ``# seed: N`` line in the learner's code, or None."""
    found = SEED_LINE.search(source) if isinstance(source, str) else None
    return int(found.group(1)) if found else None


def drawn_cases(domain, seed):
    """The domain's ``count`` cases for ``seed``; the first has every size at its smallest."""
    found = []
    for index in range(domain.count):
        rng = np.random.default_rng([seed, index, _SIZES])
        sizes = {name: _smallest(allowed) if index == 0 else _size(rng, allowed)
                 for name, allowed in domain.sizes.items()}
        found.append(_drawn(domain, seed, index, _within_budget(sizes, domain), False))
    return found


def smaller(domain, drawn):
    """Variants of ``drawn`` one step simpler, simplest first: each size at its smallest, then halfway there; then
    plain values."""
    variants = []
    for name, allowed in domain.sizes.items():
        now, least = drawn.sizes[name], _smallest(allowed)
        for size in dict.fromkeys((least, _towards(allowed, now))):
            if size != now:
                variants.append(_drawn(domain, drawn.seed, drawn.index, {**drawn.sizes, name: size}, drawn.plain))
    if not drawn.plain:
        variants.append(_drawn(domain, drawn.seed, drawn.index, drawn.sizes, True))
    return variants


def _drawn(domain, seed, index, sizes, plain):
    def make():
        draw = Draw(seed, index, sizes, plain)
        inputs = domain.make(draw)
        if domain.strided:
            inputs = {name: _maybe_strided(draw, value) for name, value in inputs.items()}
        return inputs

    return Drawn(Case(_label(seed, index, domain.count, make(), plain), make), seed, index, sizes, plain)


def _maybe_strided(draw, value):
    """A float array, sometimes as a non-contiguous view holding the same values."""
    if not (isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.ndim and value.size):
        return value
    if draw.picks.random() >= STRIDED_SHARE:
        return value
    if value.ndim >= 2 and draw.picks.random() < 0.5:
        return np.ascontiguousarray(np.swapaxes(value, -1, -2)).swapaxes(-1, -2)  # a transposed buffer
    wide = np.empty(value.shape[:-1] + (2 * value.shape[-1],), dtype=value.dtype)
    view = wide[..., ::2]
    view[...] = value
    return view


def _label(seed, index, count, inputs, plain):
    parts = []
    for name, value in inputs.items():
        if isinstance(value, np.ndarray) and value.ndim:
            strided = "" if value.flags.c_contiguous else " strided"
            parts.append(f"`{name}` {value.shape}{strided}")
        elif isinstance(value, (int, float, np.ndarray, np.number)) and not isinstance(value, bool):
            parts.append(f"`{name}` = {float(value):.4g}")
        elif isinstance(value, bool):
            parts.append(f"`{name}` = {value}")
    plain_note = ", plain values" if plain else ""
    return f"drawn case {index + 1} of {count} (seed {seed}{plain_note}: {', '.join(parts)})"


def _smallest(allowed):
    return allowed[0] if isinstance(allowed, range) else min(allowed)


def _largest(allowed):
    return allowed[-1] if isinstance(allowed, range) else max(allowed)


def _size(rng, allowed):
    """A size: the smallest or the largest a fair share of the time, else spread evenly over the log scale."""
    if not isinstance(allowed, range):
        return allowed[int(rng.integers(len(allowed)))]
    low, high = allowed[0], allowed[-1]
    edge = rng.random()
    if edge < 0.2:
        return low
    if edge < 0.4:
        return high
    return min(high, int(round(math.exp(rng.uniform(math.log(max(low, 1)), math.log(high + 1))))))


def _towards(allowed, now):
    if not isinstance(allowed, range):
        below = sorted(size for size in allowed if size < now)
        return below[len(below) // 2] if below else now
    return max(allowed[0], (allowed[0] + now) // 2)


def _within_budget(sizes, domain):
    """Halve the largest shrinkable size until the product of the sizes fits the budget, a size drawn at its
    largest last (so a model-sized dimension stays, and the others make room)."""
    sizes = dict(sizes)
    while math.prod(max(size, 1) for size in sizes.values()) > domain.budget:
        names = [name for name in sizes if _towards(domain.sizes[name], sizes[name]) < sizes[name]]
        if not names:
            break
        largest = max(names, key=lambda name: (sizes[name] != _largest(domain.sizes[name]), sizes[name]))
        sizes[largest] = _towards(domain.sizes[largest], sizes[largest])
    return sizes
