"""The modern switches against references that share no code with the engine.

1. Numbers worked by hand (a rotation by a known angle, one SwiGLU unit).
2. An independent NumPy forward written another way: one sequence, loops over heads and positions, rotary positions
   as complex multiplication, each query head picking its key head by index; the engine's logits must match it.
3. PyTorch in float64 with autograd: ``test_torch_reference.py``.
"""
import math

import numpy as np
import pytest

from engine import model
from engine.config import GPTConfig
from engine.rope import rope_forward, rope_tables
from engine.swiglu import swiglu_forward

SWITCHED = {
    "rope": {"positions": "rope"},
    "swiglu": {"ffn": "swiglu"},
    "grouped-query": {"kv_heads": 2},
    "multi-query": {"kv_heads": 1},
    "all three, rmsnorm": {"positions": "rope", "ffn": "swiglu", "kv_heads": 2, "norm": "rmsnorm"},
}
BASE = GPTConfig(vocab_size=7, seq_len=6, emb_dim=8, num_heads=4, ff_dim=6, num_layers=2)


def test_rope_turns_a_pair_by_position_times_frequency():
    # hs = 4, base 100: pair 0 turns 1 radian a step, pair 1 turns 100^(-2/4) = 0.1 radian a step.
    x = np.array([[1.0, 0.0, 0.0, 2.0]] * 3)  # the same vector at positions 0, 1, 2
    out = rope_forward(x, rope_tables(np.arange(3), 4, base=100.0))
    expected = [[1.0, 0.0, 0.0, 2.0],
                [math.cos(1), math.sin(1), -2 * math.sin(0.1), 2 * math.cos(0.1)],
                [math.cos(2), math.sin(2), -2 * math.sin(0.2), 2 * math.cos(0.2)]]
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-15)


def test_one_swiglu_unit_by_hand():
    # x = 1, gate weight 1, up weight 2, down weight 3: silu(1) = 1 / (1 + e^-1); y = silu(1) * 2 * 3
    y, _ = swiglu_forward([[1.0]], [[1.0]], [[2.0]], [[3.0]])
    assert y[0, 0] == pytest.approx(6.0 / (1.0 + math.exp(-1.0)), rel=1e-15)


def _norm(x, gain, bias):
    if bias is None:  # RMSNorm
        return gain * x / np.sqrt(np.mean(x * x) + 1e-5)
    centred = x - np.mean(x)
    return gain * centred / np.sqrt(np.mean(centred * centred) + 1e-5) + bias


def _rotate(vector, position, base):
    """RoPE as complex multiplication: pair (a, b) is a + ib, turned by e^(i position theta_j)."""
    pairs = vector[0::2] + 1j * vector[1::2]
    theta = base ** (-np.arange(len(pairs)) * 2.0 / len(vector))
    turned = pairs * np.exp(1j * position * theta)
    return np.ravel(np.column_stack([turned.real, turned.imag]))


def loop_reference_logits(p, ids, config):
    """Pre-LN forward of one sequence, position by position and head by head."""
    T, H, G, hs = len(ids), config.num_heads, config.num_kv_heads, config.head_size
    bias = (lambda name: p[name]) if config.norm == "layernorm" else (lambda name: None)
    x = [p["tok_emb"][i] + (p["pos_emb"][t] if config.positions == "learned" else 0) for t, i in enumerate(ids)]
    for b in range(config.num_layers):
        h = [_norm(row, p[f"b{b}.ln1_g"], bias(f"b{b}.ln1_b")) for row in x]
        heads = []
        for head in range(H):
            kv_head = head * G // H  # consecutive query heads share a key head
            cols, kv_cols = slice(head * hs, (head + 1) * hs), slice(kv_head * hs, (kv_head + 1) * hs)
            q = [row @ p[f"b{b}.wq"][:, cols] + p[f"b{b}.bq"][cols] for row in h]
            k = [row @ p[f"b{b}.wk"][:, kv_cols] + p[f"b{b}.bk"][kv_cols] for row in h]
            v = [row @ p[f"b{b}.wv"][:, kv_cols] + p[f"b{b}.bv"][kv_cols] for row in h]
            if config.positions == "rope":
                q = [_rotate(row, t, config.rope_base) for t, row in enumerate(q)]
                k = [_rotate(row, t, config.rope_base) for t, row in enumerate(k)]
            outs = []
            for t in range(T):
                scores = np.array([q[t] @ k[s] / math.sqrt(hs) for s in range(t + 1)])
                weights = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
                outs.append(sum(w * v[s] for s, w in enumerate(weights)))
            heads.append(outs)
        x = [x[t] + np.concatenate([heads[head][t] for head in range(H)]) @ p[f"b{b}.wo"] + p[f"b{b}.bo"]
             for t in range(T)]
        h = [_norm(row, p[f"b{b}.ln2_g"], bias(f"b{b}.ln2_b")) for row in x]
        if config.ffn == "swiglu":
            gate = [row @ p[f"b{b}.ff_gate_w"] for row in h]
            hidden = [g / (1 + np.exp(-g)) * (row @ p[f"b{b}.ff_up_w"]) for g, row in zip(gate, h)]
            x = [row + hid @ p[f"b{b}.ff_down_w"] for row, hid in zip(x, hidden)]
        else:
            pre = [row @ p[f"b{b}.ff1_w"] + p[f"b{b}.ff1_b"] for row in h]
            act = [0.5 * a * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3))) for a in pre]
            x = [row + a @ p[f"b{b}.ff2_w"] + p[f"b{b}.ff2_b"] for row, a in zip(x, act)]
    return np.array([_norm(row, p["lnf_g"], bias("lnf_b")) @ p["head_w"] + p["head_b"] for row in x])


def random_model(config, seed):
    rng = np.random.default_rng(seed)
    params = {name: (1.0 if name.endswith("_g") else 0.0) + 0.5 * rng.standard_normal(array.shape)
              for name, array in model.init_params(config).items()}
    ids = rng.integers(0, config.vocab_size, (2, config.seq_len + 1))
    return params, ids[:, :-1], ids[:, 1:]


@pytest.mark.parametrize("name", SWITCHED)
def test_engine_logits_equal_the_loop_reference(name):
    config = BASE.with_overrides(**SWITCHED[name])
    params, ids, _ = random_model(config, seed=1)
    logits, _ = model.forward(params, ids, config)
    for b in range(len(ids)):
        np.testing.assert_allclose(logits[b], loop_reference_logits(params, ids[b], config), rtol=1e-12, atol=1e-12)
