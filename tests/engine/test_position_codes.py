"""Position codes and the order-blindness of attention, against hand values and an independent attention."""
import math

import numpy as np
import pytest

from engine import positions
from engine.errors import LayerwiseError


def test_sinusoidal_table_by_hand():
    # d = 4: rates 10000^(0/4) = 1 and 10000^(-2/4) = 1/100; row t is (sin t, cos t, sin t/100, cos t/100)
    table = positions.sinusoidal_table(3, 4)
    np.testing.assert_allclose(table[0], [0, 1, 0, 1])
    np.testing.assert_allclose(table[2], [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)])


def test_sinusoidal_table_needs_an_even_width():
    with pytest.raises(LayerwiseError, match="even width"):
        positions.sinusoidal_table(4, 3)


def causal_attention_without_projections(x):
    """One head, q = k = v = x, written out: output t averages x_0..x_t with softmax(x_t . x_s) weights."""
    out = np.empty_like(x)
    for t in range(len(x)):
        scores = x[: t + 1] @ x[t]
        weights = np.exp(scores - scores.max())
        out[t] = (weights / weights.sum()) @ x[: t + 1]
    return out


def test_swapping_two_earlier_tokens_changes_nothing_later_without_positions():
    x = np.random.default_rng(4).normal(size=(5, 3))
    swapped = x[[2, 1, 0, 3, 4]]
    np.testing.assert_allclose(causal_attention_without_projections(swapped)[3:],
                               causal_attention_without_projections(x)[3:], atol=1e-12)
    assert positions.past_swap_change(with_positions=False) < 1e-12
    assert positions.past_swap_change(with_positions=True) > 1e-2


def test_the_swap_change_is_read_against_the_outputs_own_size():
    # the same draws as past_swap_change (token rows, then the projections, then the position rows), redone here
    from engine.attention import PARAM_NAMES, attention_forward
    rng = np.random.default_rng(0)
    tokens = rng.normal(size=(1, 5, 8))
    params = {name: rng.normal(size=(8, 8) if name.startswith("w") else 8) for name in PARAM_NAMES}
    places = rng.normal(size=(5, 8))
    out, _ = attention_forward(tokens + places, params, 2)
    assert positions.past_output_size(with_positions=True) == np.abs(out[0, -2:]).max()
    # the page's claim: with positions, the swap moves the output by about its own size, not by a sliver of it
    ratio = positions.past_swap_change(with_positions=True) / positions.past_output_size(with_positions=True)
    assert 0.3 < ratio < 2
