"""Exercise: one byte-pair merge on token ids."""
import numpy as _np

from ..bpe import merge_pair as _merge_pair
from ._spec import Mistake, case

TITLE = "One merge on token ids"
PAGE = "layers/tokenizer.md"
ORDER = 1
KIND = "write"
FUNCTION = "merge_ids"
OUTPUTS = ("merged",)
STATEMENT = """\
Write `merge_ids(ids, pair, new_id)` for a 1-D integer array `ids`: scan left to right and replace every
occurrence of the two ids `pair = (a, b)` side by side with the single id `new_id`; an id used by one replacement
is not reused by the next (`a, a, a` with pair `(a, a)` becomes `new_id, a`). Return `merged`, an integer array."""
SOLUTION = '''\
def merge_ids(ids, pair, new_id):
    """ids: (n,) integers, pair: (a, b), new_id: int. Return the merged ids, an integer array."""
    merged, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            merged.append(new_id)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return np.array(merged, dtype=np.int64)
'''
HINTS = (
    "Walk an index i along ids; look at ids[i] and ids[i + 1] together.",
    "After a replacement skip both ids (i += 2), otherwise keep ids[i] and move one step.",
)
MISTAKES = (
    Mistake("overlapping pairs reused", "            i += 2\n", "            i += 1\n",
            "After a merge both ids are used up: move past both (`i += 2`), or `a, a, a` would merge twice."),
)


def reference(ids, pair, new_id):
    """engine.bpe.merge_pair on one-id tuples: a merged pair is the only tuple of two ids."""
    symbols = _merge_pair([(int(i),) for i in ids], ((int(pair[0]),), (int(pair[1]),)))
    return _np.array([symbol[0] if len(symbol) == 1 else new_id for symbol in symbols], dtype=_np.int64)


CASES = (
    case("' the the' as bytes, merging t h into 256", ids=_np.array([32, 116, 104, 101, 32, 116, 104, 101]),
         pair=(116, 104), new_id=256),
    case("three a's in a row (the pair overlaps)", ids=_np.array([97, 97, 97, 98]), pair=(97, 97), new_id=300),
    case("a pair that never occurs", ids=_np.array([1, 2, 3]), pair=(3, 1), new_id=260),
)
