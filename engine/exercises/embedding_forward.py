"""Exercise: look token ids up in an embedding table."""
import numpy as np

from ..embedding import embedding_forward as _embedding_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, first_output, integers, normal, random_case

TITLE = "Embedding lookup"
PAGE = "layers/embedding.md"
ORDER = 1
KIND = "write"
FUNCTION = "embedding_forward"
OUTPUTS = ("out",)
STATEMENT = """\
Write `embedding_forward(ids, table)` returning the vectors of the tokens. `table` has shape `(V, d)`: row `i` is
the vector of token id `i`. `ids` holds integer ids of any shape `(...)`, and the result has shape `(..., d)`:
one row of the table for every id, in the same arrangement as `ids`. `table` is float64 (NumPy's default); leave it
unchanged."""
SOLUTION = '''\
def embedding_forward(ids, table):
    """ids: integer array (...), table: (V, d). Return out of shape (..., d)."""
    return table[ids]
'''
HINTS = (
    "NumPy's integer-array indexing does the whole lookup in one expression; no loop is needed.",
    "Indexing the first axis of `table` with an array of ids gives one row per id, shaped like `ids`.",
)
MISTAKES = (
    Mistake("columns instead of rows", "return table[ids]", "return table[:, ids]",
            "This picks columns of the table. Each *row* of `table` is a token's vector, so index the first axis: "
            "`table[ids]`."),
    Mistake("one-hot product with the transpose", "return table[ids]", "return np.eye(table.shape[1])[ids] @ table.T",
            "The one-hot vectors must have V entries (one per row of the table) and multiply `table` itself, "
            "not its transpose; `table[ids]` does the same without building them."),
)


reference = first_output(_embedding_forward)


CASES = (
    case("a 2×3 batch of ids with repeats and a 4×3 table", ids=np.array([[0, 2, 0], [1, 1, 2]]),
         table=[[0.1, 0.2, 0.3], [1.0, -1.0, 0.5], [2.0, 0.0, -2.0], [5.0, 5.0, 5.0]]),
    random_case("random ids of shape (2, 5) into a 7×5 table", seed=3, ids=integers(7, 2, 5), table=normal(7, 5)),
    random_case("a flat list of 6 ids into a 3×2 table", seed=4, ids=integers(3, 6), table=normal(3, 2)),
    case("a single id, a 0-d array, into a 3×2 table", ids=np.array(2), table=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    random_case("ids of shape (2, 2, 3) using only ids below 4 of a 9×4 table", seed=44, ids=integers(4, 2, 2, 3),
                table=normal(9, 4)),
)

# The statement: ids of any shape (0-d too), a table (V, d) up to GPT-2's width; ids repeat and miss rows.
DOMAIN = Domain(
    sizes={**LEADING, "T": (0, 1, 7, 64), "V": range(1, 513), "d": range(1, 769)},
    make=lambda d: {"ids": d.integers(0, d.V, *d.lead(), *(d.T,) * (d.T > 0)), "table": d.normal(d.V, d.d)},
)
