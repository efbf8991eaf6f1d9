"""Widget kind ``gqa`` against a loop over heads written here, and sizes worked by hand."""
import math

import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.gqa import layer_weights
from results import values


def loop_attention(x, p, H, G):
    """Causal attention one query head at a time, head h reading key head h * G // H."""
    T, d = x.shape
    hs = d // H
    out = np.zeros((T, d))
    for h in range(H):
        g = h * G // H
        q = x @ p["wq"][:, h * hs:(h + 1) * hs] + p["bq"][h * hs:(h + 1) * hs]
        k = x @ p["wk"][:, g * hs:(g + 1) * hs] + p["bk"][g * hs:(g + 1) * hs]
        v = x @ p["wv"][:, g * hs:(g + 1) * hs] + p["bv"][g * hs:(g + 1) * hs]
        for t in range(T):
            scores = [q[t] @ k[s] / math.sqrt(hs) for s in range(t + 1)]
            w = np.exp(np.array(scores) - max(scores))
            out[t, h * hs:(h + 1) * hs] = (w / w.sum()) @ v[:t + 1]
    return out @ p["wo"] + p["bo"]


def test_gqa_defaults_against_a_loop_over_heads():
    inputs = KINDS["gqa"].defaults()
    result = run("gqa", inputs)
    x = np.array(inputs["x"], dtype=float)
    p = layer_weights(4, 2)  # d = 4, H = 4 so hs = 1, G = 2: keys 2 wide
    assert values(result, "head_of").tolist() == [0, 0, 1, 1]
    np.testing.assert_allclose(values(result, "keys"), x @ p["wk"] + p["bk"], atol=1e-12)
    np.testing.assert_allclose(values(result, "y"), loop_attention(x, p, 4, 2), atol=1e-12)
    assert "keeps 4 numbers per position" in result["notes"][0]  # 2 x G 2 x hs 1


def test_a_group_that_does_not_divide_is_named():
    with pytest.raises(LayerwiseError, match=r"G \(3\) to divide H"):
        run("gqa", {**KINDS["gqa"].defaults(), "kv_heads": 3})
