"""Exercise: the backward of one causal attention head, through the softmax and the mask."""
from ..attention import scaled_dot_product_backward as _sdp_backward, scaled_dot_product_forward as _sdp_forward
from ._domain import Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache
from .attention_head import SOLUTION as _HEAD_SOLUTION  # the forward it is given

TITLE = "One attention head, backward"
PAGE = "layers/attention.md"
ORDER = 4
KIND = "write"
FUNCTION = "attention_head_backward"
OUTPUTS = ("dq", "dk", "dv")
STATEMENT = """\
`attention_head(q, k, v)` is given: scores \\(S = q k^\\top / \\sqrt{hs}\\), the future set to \\(-\\infty\\),
weights \\(P = \\mathrm{softmax}(S)\\) over the keys, output \\(P v\\). Write
`attention_head_backward(dout, q, k, v)` returning `(dq, dk, dv)`, the gradients of the loss with respect to `q`,
`k` and `v` `(..., T, hs)`, from the upstream gradient `dout` of the output (the same shape). Derive it; the hints
go one product at a time and the last one gives the whole chain. Arrays are float64 (NumPy's default); leave the
inputs unchanged."""
SOLUTION = _HEAD_SOLUTION + '''

def attention_head_backward(dout, q, k, v):
    """dout, q, k, v: (..., T, hs). Return (dq, dk, dv)."""
    T, hs = q.shape[-2:]
    scale = 1.0 / np.sqrt(hs)
    s = q @ np.swapaxes(k, -1, -2) * scale
    s = np.where(np.tri(T, dtype=bool), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)  # (..., T, T), 0 above the diagonal
    dv = np.swapaxes(p, -1, -2) @ dout
    dp = dout @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True))
    ds = ds * scale
    dq = ds @ k
    dk = np.swapaxes(ds, -1, -2) @ q
    return dq, dk, dv
'''
HINTS = (
    "Recompute the forward's weights P first, exactly as `attention_head` does (scaled, masked, softmax): every "
    "gradient below needs them.",
    "The last product first. out = P v, so dv = P^T dout and dP = dout v^T, with `np.swapaxes(..., -1, -2)` for "
    "the transposes so that leading batch axes stay put.",
    "Through the softmax, row by row: dS = P * (dP - sum(dP * P)), the sum over the last axis with keepdims=True. "
    "Where the mask set a score to -inf, P is exactly 0, so dS is 0 there: the mask needs no backward of its own.",
    "S = q k^T / sqrt(hs): divide dS by sqrt(hs), then dq = dS k and dk = dS^T q.",
    "So: dv = P^T dout; dS = P * (dP - rowsum(dP * P)) / sqrt(hs) with dP = dout v^T; dq = dS k; dk = dS^T q.",
)
MISTAKES = (
    Mistake("softmax's Jacobian cut to its diagonal", "ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True))",
            "ds = p * dp",
            "Each weight of a row depends on every score of that row: the softmax backward is "
            "P * (dP - sum(dP * P)) over the last axis, not P * dP."),
    Mistake("scale forgotten in the backward", "    ds = ds * scale\n", "",
            "The scores were divided by sqrt(hs), so their gradient is too: divide dS by sqrt(hs) before dq and dk."),
    Mistake("P not transposed for dv", "dv = np.swapaxes(p, -1, -2) @ dout", "dv = p @ dout",
            "out = P v sums over the keys, so dv = P^T dout: key j collects from every query that attended to it."),
    Mistake("dk without the transpose", "dk = np.swapaxes(ds, -1, -2) @ q", "dk = ds @ q",
            "S = q k^T puts keys on the columns of dS: dk = dS^T q (swap dS's last two axes), while dq = dS k."),
    Mistake("no mask when recomputing the weights", "    s = np.where(np.tri(T, dtype=bool), s, -np.inf)\n", "",
            "The backward must use the weights the forward used: mask the future with -inf before the softmax here "
            "too."),
)
GRADCHECK = Gradcheck(forward="attention_head", args=("q", "k", "v"), wrt=("q", "k", "v"), upstream="dout")


reference = through_cache(_sdp_backward, _sdp_forward)


CASES = (
    case("3 positions with head size 2", dout=[[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]],
         q=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], k=[[1.0, 0.0], [0.0, 2.0], [-1.0, 1.0]],
         v=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    random_case("random dout, q, k, v of shape (5, 3)", seed=81, dout=normal(5, 3), q=normal(5, 3), k=normal(5, 3),
                v=normal(5, 3)),
    random_case("a batch of shape (3, 3, 3): 3 sequences, T = 3, hs = 3, so unswapped transposes fit", seed=82,
                dout=normal(3, 3, 3), q=normal(3, 3, 3), k=normal(3, 3, 3), v=normal(3, 3, 3)),
    random_case("2 sequences of 2 heads, shape (2, 2, 5, 4)", seed=83, dout=normal(2, 2, 5, 4), q=normal(2, 2, 5, 4),
                k=normal(2, 2, 5, 4), v=normal(2, 2, 5, 4)),
    random_case("a long sequence, T = 40, hs = 4 (longer than a small fixed mask)", seed=84, dout=normal(40, 4),
                q=normal(40, 4), k=normal(40, 4), v=normal(40, 4)),
    random_case("scores in the tens, shape (2, 6, 3): weights close to one-hot", seed=85, dout=normal(2, 6, 3),
                q=normal(2, 6, 3, scale=6.0), k=normal(2, 6, 3, scale=6.0), v=normal(2, 6, 3)),
    random_case("a single position, T = 1: its weight is 1, so dq and dk are 0", seed=86, dout=normal(1, 4),
                q=normal(1, 4), k=normal(1, 4), v=normal(1, 4)),
)

# The statement: (..., T, hs) with any leading axes. Not scores in the thousands: where a weight is e^-1000, its
# gradient is a difference of round-off, and two right answers part further than the value check allows.
DOMAIN = Domain(
    sizes={"axes": (0, 1, 2), "a": range(1, 4), "T": range(1, 41), "hs": range(1, 17)},
    make=lambda d: {name: d.normal(*(d.a,) * d.axes, d.T, d.hs, scale=(1.0, 3.0) if name != "dout" else 1.0)
                    for name in ("dout", "q", "k", "v")},
)
