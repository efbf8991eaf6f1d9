"""RoPE in Build your GPT: the learner's ``rope_forward(x, base)`` in place of the engine's rotation, forward and back.

The exercise turns the rows of x by positions 0..T-1; the model calls ``rope_forward(x, tables)`` with the tables
of the positions at hand (0..T-1 in training, one later position in a KV-cache decode step). The positions are
read back from the tables (checked to be exactly the tables of those positions), and a row at position p is turned
as the learner's function turns row p of a longer input. The backward is the rotation by the opposite angle: with
this engine's pairing (2i, 2i+1), R(-a) = N R(a) N where N negates the odd channel of each pair, so the learner's
own forward gives the backward too (negation is exact: bit for bit the engine's ``rope_backward``).
"""
import numpy as np

from ..config import GPTConfig
from ..errors import LayerwiseError
from ..rope import rope_frequencies, rope_tables

BASE = GPTConfig().rope_base  # every configuration the page offers keeps GPTConfig's base


def positions_of(tables, head_size):
    """The positions ``(T,)`` whose rotary tables (base BASE) are ``tables``; anything else is a LayerwiseError."""
    cos, sin = tables
    slowest = rope_frequencies(head_size, BASE)[-1]  # the last pair turns less than a half turn over the positions
    positions = np.rint(np.arctan2(sin[:, -1], cos[:, -1]) / slowest).astype(int)  # (T,)
    expected = rope_tables(positions, head_size, BASE, cos.dtype)
    if (positions < 0).any() or not (np.array_equal(cos, expected[0]) and np.array_equal(sin, expected[1])):
        raise LayerwiseError(f"rope_forward: the model's rotary tables are not those of base {BASE:g} at whole "
                             f"positions; the exercise's rope_forward turns positions 0..T-1 with that base")
    return positions


def rotate(learner, engine, x, tables):
    """The engine's ``rope_forward(x, tables)`` computed by the learner's ``rope_forward(x, base)``."""
    positions = positions_of(tables, x.shape[-1])
    if np.array_equal(positions, np.arange(len(positions))):
        return learner(x, BASE)
    longer = np.zeros(x.shape[:-2] + (positions.max() + 1, x.shape[-1]), dtype=x.dtype)  # rows 0..max position
    longer[..., positions, :] = x
    return learner(longer, BASE)[..., positions, :]


def odd_negated(x):
    """x with the second channel of every pair negated: the reflection N of the module's docstring."""
    out = np.array(x)  # a copy, of the same dtype
    out[..., 1::2] *= -1.0
    return out


def rotate_back(learner, engine, dy, tables):
    """The engine's ``rope_backward(dy, tables)``: N R(a) N dy, the rotation R(a) being the learner's forward."""
    return odd_negated(rotate(learner, engine, odd_negated(dy), tables))
