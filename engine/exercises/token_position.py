"""Exercise: token embedding plus learned position embedding."""
import numpy as np

from ..embedding import token_position_forward as _token_position_forward
from ._domain import Domain
from ._spec import Mistake, case, first_output, integers, normal, random_case

TITLE = "Token plus position embedding"
PAGE = "layers/embedding.md"
ORDER = 3
KIND = "write"
FUNCTION = "embed_tokens"
OUTPUTS = ("x",)
STATEMENT = """\
Write `embed_tokens(ids, tok_emb, pos_emb)` returning the transformer's input `x` of shape `(B, T, d)`. `ids` is
`(B, T)`, `tok_emb` is `(V, d)` and `pos_emb` is `(T_max, d)` with `T <= T_max`. The vector at batch `b` and
position `t` is the row of its token plus the row of its *position*: `tok_emb[ids[b, t]] + pos_emb[t]`. `tok_emb`
and `pos_emb` are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def embed_tokens(ids, tok_emb, pos_emb):
    """ids: (B, T) ints, tok_emb: (V, d), pos_emb: (T_max, d). Return x of shape (B, T, d)."""
    T = ids.shape[1]
    return tok_emb[ids] + pos_emb[:T]
'''
HINTS = (
    "`tok_emb[ids]` is already `(B, T, d)`.",
    "Only the first T rows of `pos_emb` are used; `(T, d)` broadcasts over the batch axis.",
)
MISTAKES = (
    Mistake("position looked up by token id", "pos_emb[:T]", "pos_emb[ids]",
            "The position table is indexed by the *position* t = 0, 1, ..., T - 1, not by the token id: "
            "add `pos_emb[:T]`."),
    Mistake("positions counted from 1", "pos_emb[:T]", "pos_emb[1:T + 1]",
            "Positions count from 0: the first token of a sequence gets row 0 of `pos_emb`, so add `pos_emb[:T]`."),
)


reference = first_output(_token_position_forward)


CASES = (
    case("2 sequences of 3 tokens, V = 4, T_max = 5, d = 2", ids=np.array([[0, 3, 1], [2, 2, 0]]),
         tok_emb=[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [-1.0, 3.0]],
         pos_emb=[[0.1, 0.1], [0.2, -0.2], [10.0, 20.0], [7.0, 7.0], [-5.0, 5.0]]),
    random_case("random ids (3, 4) with V = 6, T_max = 7, d = 5", seed=7, ids=integers(6, 3, 4),
                tok_emb=normal(6, 5), pos_emb=normal(7, 5)),
    random_case("one sequence as long as the table, T = T_max = 6", seed=46, ids=integers(5, 1, 6),
                tok_emb=normal(5, 3), pos_emb=normal(6, 3)),
    random_case("20 sequences of 1 token", seed=47, ids=integers(9, 20, 1), tok_emb=normal(9, 2),
                pos_emb=normal(4, 2)),
)


def _embedding(d):
    """ids (B, T), tok_emb (V, d), pos_emb (T_max, d) with T <= T_max."""
    T = min(d.T, d.T_max)
    return {"ids": d.integers(0, d.V, d.B, T), "tok_emb": d.normal(d.V, d.d), "pos_emb": d.normal(d.T_max, d.d)}


DOMAIN = Domain(sizes={"B": range(1, 9), "T": range(1, 65), "T_max": range(1, 129), "V": range(1, 257),
                       "d": range(1, 769)}, make=_embedding)
