"""Widget kind ``gqa``: one attention layer with H query heads sharing G key/value heads, on rows the reader edits,
with seeded weights: which key head each query head reads, the keys the cache keeps, the output and the backward."""
import numpy as np

from ..attention import attention_backward, attention_forward
from ..errors import LayerwiseError
from .fmt import format_compact
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap

WEIGHT_SEED = 0


def layer_weights(d, kv_dim, seed=WEIGHT_SEED):
    """Seeded weights of an attention layer with keys and values ``kv_dim`` wide."""
    rng = np.random.default_rng(seed)
    shapes = {"wq": (d, d), "bq": (d,), "wk": (d, kv_dim), "bk": (kv_dim,), "wv": (d, kv_dim), "bv": (kv_dim,),
              "wo": (d, d), "bo": (d,)}
    return {name: rng.normal(0.0, 0.5, shape) for name, shape in shapes.items()}


def compute(x, num_heads, kv_heads, dy):
    T, d = x.shape
    H, G = int(num_heads), int(kv_heads)
    if d % H or H % G:
        raise LayerwiseError(f"gqa example: need H ({H}) to divide d ({d}) and G ({G}) to divide H: each key head "
                             f"serves an equal group of query heads")
    hs = d // H
    params = layer_weights(d, G * hs)
    y, cache = attention_forward(x[None], params, H, G)  # (1, T, d)
    dx, grads = attention_backward(dy[None], cache)
    k, v = cache["kv"]  # (1, G, T, hs) each
    keys = k[0].transpose(1, 0, 2).reshape(T, G * hs)  # (T, G hs): what the cache keeps per position
    head_of = np.arange(H) // (H // G)  # (H,): query head h reads key head h // (H / G)

    def loss():
        return float(np.sum(attention_forward(x[None], params, H, G)[0] * dy[None]))

    notes = (
        f"The cache keeps {2 * G * hs} numbers per position in this layer (a key and a value of {G} × {hs}); "
        f"multi-head attention would keep {2 * d}, multi-query {2 * hs}.",
        f"Query heads per key head: {H // G}. Weights are drawn once from seed {WEIGHT_SEED}; "
        f"wk and wv are {d} × {G * hs}, wq and wo {d} × {d}.",
    )
    return Result(
        blocks=(
            Block("head_of", "key head read by query head h: h // (H / G)", head_of, ("H",), "step"),
            Block("keys", "keys kept in the cache, key heads side by side", keys, ("T", "K"), "step"),
            Block("y", "y = attention(x) with shared keys and values", y[0], ("T", "d")),
            Block("dx", "dx: dy through the backward (shared heads sum their gradients)", dx[0], ("T", "d"),
                  "backward"),
            Block("dwk", "dwk = x.T @ dk, dk summed over each group", grads["wk"], ("d", "K"), "backward"),
        ),
        arithmetic=f"head_of = [{', '.join(str(h) for h in head_of)}] for H = {H}, G = {G}; attention parameters "
                   f"{sum(a.size for a in params.values())} ({format_compact(2 * d * d + 2 * d)} for q and o, "
                   f"{format_compact(2 * d * G * hs + 2 * G * hs)} for k and v)",
        gradient_gap=lambda: gradient_gap(loss, {"x": x[None], **params}, {"x": dx, **grads}),
        notes=notes,
    )


KIND = Kind(
    name="gqa",
    title="Grouped-query attention, forward and backward",
    description="Rows are positions. Edit x, the number of query heads H, of key/value heads G, or dy.",
    dims=(Dim("T", "t", 1, 5), Dim("d", "i", 2, 8), Dim("H", "h", 1, 8, resizable=False),
          Dim("K", "k", 1, 8, resizable=False)),
    inputs=(
        Operand("x", "input rows, one per position", ("T", "d"), [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]]),
        Operand("num_heads", "H, query heads (divides d)", (), 4, integer=True, bounds=(1, 8)),
        Operand("kv_heads", "G, key/value heads (divides H)", (), 2, integer=True, bounds=(1, 8)),
        Operand("dy", "gradient of the loss with respect to y", ("T", "d"), [[1, 0, 0, 0], [0, 1, 0, 0],
                                                                             [0, 0, 1, 0]]),
    ),
    compute=compute,
)
