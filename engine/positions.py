"""Why a transformer needs positions, and the fixed alternative to a learned table.

Causal attention compares a query with a set of keys and averages a set of values: nothing in it says which earlier
token came first. ``past_swap_change`` measures that on the engine's own attention; ``sinusoidal_table`` is the
fixed position code of Vaswani et al. (2017, section 3.5), which the Embedding page sets beside the learned table
this model uses.
"""
import numpy as np

from .attention import PARAM_NAMES, attention_forward
from .errors import LayerwiseError


def sinusoidal_table(num_positions, width):
    """``(num_positions, width)``: sin at even columns, cos at odd ones, wavelengths growing geometrically."""
    if width % 2 or width < 2 or num_positions < 1:
        raise LayerwiseError(f"sinusoidal_table: need num_positions >= 1 and an even width >= 2, "
                             f"got {num_positions} and {width}")
    t = np.arange(num_positions)[:, None]  # (T, 1)
    rates = 10000.0 ** (-np.arange(0, width, 2) / width)  # (d/2,): 1, ..., 1/10000
    table = np.empty((num_positions, width))
    table[:, 0::2] = np.sin(t * rates)
    table[:, 1::2] = np.cos(t * rates)
    return table


def _past_swap_outputs(with_positions, num_tokens, width, num_heads, seed):
    """Causal attention's output ``(B, T, d)`` before and after tokens 0 and 2 swap places (random weights)."""
    rng = np.random.default_rng(seed)
    tokens = rng.normal(size=(1, num_tokens, width))  # (B, T, d)
    params = {name: rng.normal(size=(width, width) if name.startswith("w") else width) for name in PARAM_NAMES}
    places = rng.normal(size=(num_tokens, width)) if with_positions else np.zeros((num_tokens, width))  # (T, d)
    order = np.arange(num_tokens)
    order[[0, 2]] = order[[2, 0]]
    before, _ = attention_forward(tokens + places, params, num_heads)  # (B, T, d)
    after, _ = attention_forward(tokens[:, order] + places, params, num_heads)
    return before, after


def past_swap_change(with_positions, num_tokens=5, width=8, num_heads=2, seed=0):
    """Largest change of causal attention's output at the last two positions when tokens 0 and 2 swap places.

    Without positions the later positions see the same set of earlier tokens, so their output does not change (up
    to rounding); with a position row added to each place (here random, as a fresh learned table would be) it does.
    """
    before, after = _past_swap_outputs(with_positions, num_tokens, width, num_heads, seed)
    return float(np.abs(after[:, -2:] - before[:, -2:]).max())


def past_output_size(with_positions, num_tokens=5, width=8, num_heads=2, seed=0):
    """Largest entry of the output at the last two positions before the swap: the scale ``past_swap_change`` is
    read against (its weights are N(0, 1), so its outputs are far from unit size)."""
    before, _ = _past_swap_outputs(with_positions, num_tokens, width, num_heads, seed)
    return float(np.abs(before[:, -2:]).max())
