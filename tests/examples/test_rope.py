"""Widget kind ``rope`` against numbers worked by hand."""
import math

import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from results import values


def test_rope_defaults_by_hand():
    result = run("rope", KINDS["rope"].defaults())
    # q is (1, 0, 1, 0) at positions 0, 1, 2; base 100 and hs 4: pair 0 turns 1 rad a step, pair 1 0.1 rad
    np.testing.assert_allclose(values(result, "q_rot"), [[1, 0, 1, 0], [math.cos(1), math.sin(1), math.cos(0.1),
                                                                         math.sin(0.1)],
                                                         [math.cos(2), math.sin(2), math.cos(0.2), math.sin(0.2)]],
                               atol=1e-12)
    scores = np.array(values(result, "S"))
    # on the diagonal query and key turn alike, so S[t, t] = q[t] . k[t] / 2 = 1 / 2 for each row
    np.testing.assert_allclose(np.diagonal(scores), [0.5, 0.5, 0.5], atol=1e-12)
    # query at 1, key (1, 0, 0, 1) at 0: (cos 1 + sin 0.1) / 2
    assert abs(scores[1, 0] - (math.cos(1) + math.sin(0.1)) / 2) < 1e-12
    np.testing.assert_allclose(values(result, "S_shifted"), scores, atol=1e-12)
    # dy row 1 is (0, 1, 0, 0): turned back by -1 rad it becomes (sin 1, cos 1, 0, 0)
    np.testing.assert_allclose(values(result, "dq")[1], [math.sin(1), math.cos(1), 0, 0], atol=1e-12)


def test_an_odd_head_size_is_named():
    inputs = KINDS["rope"].defaults()
    inputs["q"] = [[1, 0, 1]] * 3
    inputs["k"] = [[1, 0, 1]] * 3
    inputs["dy"] = [[1, 0, 1]] * 3
    with pytest.raises(LayerwiseError, match="head size must be even"):
        run("rope", inputs)
