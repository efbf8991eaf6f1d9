"""Exercise: multi-head causal self-attention, backward: through the output projection, the merge, every head,
the split and the three input projections, whose gradients add up in dx."""
from ..attention import attention_backward as _attention_backward, attention_forward as _attention_forward
from ._domain import Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case
from .attention_forward import ATTENTION_SIZES, IDENTITY, drawn_weights, random_weights
from .attention_forward import SOLUTION as _FORWARD_SOLUTION  # the forward it is given

TITLE = "Multi-head attention, backward"
PAGE = "layers/attention.md"
ORDER = 6
KIND = "write"
FUNCTION = "attention_backward"
OUTPUTS = ("dx", "dwq", "dbq", "dwk", "dbk", "dwv", "dbv", "dwo", "dbo")
GIVEN = ("attention-head", "attention-head-backward")
STATEMENT = """\
`attention_forward(x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads)` is given (the solution of *Multi-head attention,
forward*), and so are `attention_head(q, k, v)` and `attention_head_backward(dout, q, k, v)` (the solutions of the
two head exercises, for any leading axes). Write `attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo,
num_heads)` returning `(dx, dwq, dbq, dwk, dbk, dwv, dbv, dwo, dbo)` from the upstream gradient `dy` `(B, T, d)`:
each gradient has the shape of its input. Read the forward backwards, one call at a time. Arrays are float64
(NumPy's default); leave the inputs unchanged."""
SOLUTION = _FORWARD_SOLUTION + '''

def attention_backward(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    """dy, x: (B, T, d); w*: (d, d); b*: (d,). Return (dx, dwq, dbq, dwk, dbk, dwv, dbv, dwo, dbo)."""
    B, T, d = x.shape
    hs = d // num_heads

    def split(a):  # (B, T, d) -> (B, H, T, hs)
        return a.reshape(B, T, num_heads, hs).transpose(0, 2, 1, 3)

    def merge(a):  # (B, H, T, hs) -> (B, T, d)
        return a.transpose(0, 2, 1, 3).reshape(B, T, d)

    def rows(a):  # (B, T, d) -> (B*T, d): every position is one more example of each linear layer
        return a.reshape(B * T, d)

    q, k, v = split(x @ wq + bq), split(x @ wk + bk), split(x @ wv + bv)  # (B, H, T, hs)
    merged = merge(attention_head(q, k, v))  # (B, T, d)
    dwo = rows(merged).T @ rows(dy)
    dbo = rows(dy).sum(axis=0)
    dq, dk, dv = attention_head_backward(split((rows(dy) @ wo.T).reshape(B, T, d)), q, k, v)  # (B, H, T, hs)
    dq, dk, dv = rows(merge(dq)), rows(merge(dk)), rows(merge(dv))  # (B*T, d) each
    dwq, dwk, dwv = rows(x).T @ dq, rows(x).T @ dk, rows(x).T @ dv
    dbq, dbk, dbv = dq.sum(axis=0), dk.sum(axis=0), dv.sum(axis=0)
    dx = (dq @ wq.T + dk @ wk.T + dv @ wv.T).reshape(B, T, d)
    return dx, dwq, dbq, dwk, dbk, dwv, dbv, dwo, dbo
'''
HINTS = (
    "Recompute what the backward needs, as the forward does: q, k, v split into heads (B, H, T, hs) and the "
    "merged heads' output (B, T, d).",
    "The output projection is a linear layer: dwo = merged^T dy and dbo = dy summed over B and T (flatten B and T "
    "into rows first), and the gradient reaching the merged heads is dy @ wo.T.",
    "The merge only moved numbers, so its backward is the split: split(dy @ wo.T) is the gradient of the heads' "
    "output. attention_head_backward turns it into dq, dk, dv per head; merge each back to (B, T, d).",
    "Each of q, k, v is a linear layer of x: dwq = x^T dq (rows flattened), dbq = dq summed over B and T, and the "
    "same for k and v. x feeds all three, so dx = dq @ wq.T + dk @ wk.T + dv @ wv.T.",
)
MISTAKES = (
    Mistake("dx from one projection only", "(dq @ wq.T + dk @ wk.T + dv @ wv.T)", "(dv @ wv.T)",
            "x feeds the queries, the keys and the values, so its gradient is the sum of the three paths: "
            "dx = dq @ wq.T + dk @ wk.T + dv @ wv.T."),
    Mistake("upstream gradient split with a plain reshape", "split((rows(dy) @ wo.T).reshape(B, T, d))",
            "(rows(dy) @ wo.T).reshape(B, num_heads, T, hs)",
            "The gradient of the merged heads is split like the forward split its values: reshape to (B, T, H, hs) "
            "and transpose(0, 2, 1, 3); a plain reshape to (B, H, T, hs) hands each head other positions."),
    Mistake("head gradients merged with a plain reshape",
            "dq, dk, dv = rows(merge(dq)), rows(merge(dk)), rows(merge(dv))",
            "dq, dk, dv = rows(dq), rows(dk), rows(dv)",
            "dq, dk and dv come back per head, (B, H, T, hs): transpose(0, 2, 1, 3) before the reshape to (B, T, d), "
            "as the forward's merge does."),
    Mistake("wo not transposed", "rows(dy) @ wo.T", "rows(dy) @ wo",
            "y = merged @ wo, so the gradient reaching merged is dy @ wo.T."),
)
ROUND_OFF = ("dbk",)  # 0 up to round-off whatever the inputs: bk moves a row of scores evenly
GRADCHECK = Gradcheck(forward="attention_forward",
                      args=("x", "wq", "bq", "wk", "bk", "wv", "bv", "wo", "bo", "num_heads"),
                      wrt=("x", "wq", "bq", "wk", None, "wv", "bv", "wo", "bo"), upstream="dy")
# dbk is left out: bk moves every score of a row by the same amount, which the softmax ignores, so the loss does not
# depend on it and both sides are round-off (the value checks still compare it with the engine's)


def reference(dy, x, wq, bq, wk, bk, wv, bv, wo, bo, num_heads):
    params = {"wq": wq, "bq": bq, "wk": wk, "bk": bk, "wv": wv, "bv": bv, "wo": wo, "bo": bo}
    dx, grads = _attention_backward(dy, _attention_forward(x, params, num_heads)[1])
    return (dx, *(grads[name] for name in params))


CASES = (
    case("one sequence of 2 positions, d = 2, 2 heads of size 1, every projection the identity",
         dy=[[[1.0, -1.0], [0.5, 2.0]]], x=[[[1.0, 0.0], [2.0, 1.0]]], **IDENTITY, num_heads=2),
    random_case("a batch of shape (2, 4, 6) with 3 heads of size 2", seed=101, dy=normal(2, 4, 6), x=normal(2, 4, 6),
                **random_weights(6), num_heads=3),
    random_case("a batch of shape (3, 3, 6) with 2 heads of size 3: T = hs, so shapes alone cannot tell a wrong "
                "split", seed=102, dy=normal(3, 3, 6), x=normal(3, 3, 6), **random_weights(6), num_heads=2),
    random_case("a single head, shape (2, 5, 4): no split at all", seed=103, dy=normal(2, 5, 4), x=normal(2, 5, 4),
                **random_weights(4), num_heads=1),
    random_case("one long sequence, shape (1, 40, 4), 2 heads", seed=104, dy=normal(1, 40, 4), x=normal(1, 40, 4),
                **random_weights(4), num_heads=2),
    random_case("large scores, shape (2, 6, 8), 4 heads", seed=105, dy=normal(2, 6, 8), x=normal(2, 6, 8, scale=10.0),
                **random_weights(8, scale=3.0), num_heads=4),
)

DOMAIN = Domain(
    sizes=ATTENTION_SIZES,
    make=lambda d: {"dy": d.normal(d.B, d.T, d.H * d.hs), "x": d.normal(d.B, d.T, d.H * d.hs, scale=(1.0, 10.0)),
                    **drawn_weights(d, d.H * d.hs), "num_heads": d.H},
)
