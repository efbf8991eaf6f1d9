"""Exercise (fix the bug): the gradient of an embedding table when an id occurs more than once."""
import numpy as np

from ..embedding import embedding_backward as _embedding_backward, embedding_forward as _embedding_forward
from ._domain import LEADING, Domain
from ._spec import Gradcheck, Mistake, case, integers, normal, random_case, through_cache

TITLE = "Embedding backward with repeated ids"
PAGE = "layers/embedding.md"
ORDER = 2
KIND = "fix"
FUNCTION = "embedding_backward"
OUTPUTS = ("dtable",)
STATEMENT = """\
`embedding_backward(dout, ids, table)` should return `dtable`, the gradient of the loss with respect to the
embedding table `(V, d)`, given the upstream gradient `dout` `(..., d)` of the lookup `table[ids]`. Every
occurrence of an id contributes its row of `dout` to that id's row of `dtable`. The code below looks right and
passes when every id is different. Find the bug (an id that appears twice is the clue) and fix it. An id of the
table may not occur at all; its row of `dtable` is then 0. `dout` and `table` are float64 (NumPy's default);
leave the inputs unchanged."""
SOLUTION = '''\
def embedding_forward(ids, table):
    return table[ids]


def embedding_backward(dout, ids, table):
    """dout: (..., d), ids: integer array (...), table: (V, d). Return dtable (V, d)."""
    dtable = np.zeros_like(table)
    np.add.at(dtable, ids, dout)
    return dtable
'''
HINTS = (
    "Try it by hand with ids = [0, 0]: the row of token 0 was used twice, so its gradient is the sum of two rows.",
    "Fancy-index assignment `a[ids] += v` reads, adds and writes once per *distinct* index.",
    "`np.add.at(dtable, ids, dout)` adds every occurrence, repeated ones included.",
)
MISTAKES = (
    Mistake("+= with repeated ids", "np.add.at(dtable, ids, dout)", "dtable[ids] += dout",
            "With `dtable[ids] += dout`, an id that occurs several times is written once, so only one of its "
            "gradient rows survives. `np.add.at(dtable, ids, dout)` adds every occurrence."),
    Mistake("np.bincount without minlength",
            "    dtable = np.zeros_like(table)\n    np.add.at(dtable, ids, dout)\n",
            "    flat = dout.reshape(-1, dout.shape[-1])\n"
            "    dtable = np.stack([np.bincount(ids.ravel(), weights=flat[:, j]) for j in range(flat.shape[1])], "
            "axis=1)\n",
            "`np.bincount` returns max(ids) + 1 bins, so the rows of ids that never occur past the largest one are "
            "missing. Pass `minlength=table.shape[0]` so `dtable` has one row per id of the table."),
)
GRADCHECK = Gradcheck(forward="embedding_forward", args=("ids", "table"), wrt=("table",), upstream="dout")


reference = through_cache(_embedding_backward, _embedding_forward)


CASES = (
    case("ids [[0, 2, 0], [1, 0, 3]] (id 0 three times) into a 4×2 table",
         dout=[[[1.0, 2.0], [0.5, 0.5], [3.0, -1.0]], [[-1.0, 0.0], [10.0, 1.0], [2.0, 2.0]]],
         ids=np.array([[0, 2, 0], [1, 0, 3]]), table=[[0.1, 0.2], [1.0, -1.0], [2.0, 0.0], [5.0, 5.0]]),
    random_case("random ids of shape (3, 4) into a 5×3 table", seed=5, dout=normal(3, 4, 3), ids=integers(5, 3, 4),
                table=normal(5, 3)),
    random_case("a flat list of 8 ids into a 3×6 table", seed=6, dout=normal(8, 6), ids=integers(3, 8),
                table=normal(3, 6)),
    random_case("ids (2, 5) below 4 into a 7×3 table: the highest ids 4, 5 and 6 never occur", seed=45,
                dout=normal(2, 5, 3), ids=integers(4, 2, 5), table=normal(7, 3)),
)


def _lookup(d):
    ids = d.integers(0, d.V, *d.lead(), *(d.T,) * (d.T > 0))
    return d.normal(*ids.shape, d.d, scale=(1.0, 1e3)), ids, d.normal(d.V, d.d)


# The statement: dout (..., d), ids of any shape with repeats and missing ids, a table (V, d).
DOMAIN = Domain(sizes={**LEADING, "T": (0, 1, 7, 64), "V": range(1, 513), "d": range(1, 769)},
                make=lambda d: dict(zip(("dout", "ids", "table"), _lookup(d))))
