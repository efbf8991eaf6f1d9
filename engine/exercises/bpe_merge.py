"""Exercise: one byte-pair merge on token ids, the most frequent adjacent pair (the first met among equals)."""
import numpy as np

from ..bpe import merge_pair as _merge_pair
from ..bpe import pair_counts as _pair_counts
from ._domain import Domain
from ._spec import Mistake, case, integers, random_case

TITLE = "One byte-pair merge"
PAGE = "layers/embedding.md"
ORDER = 4
KIND = "write"
FUNCTION = "bpe_merge"
OUTPUTS = ("pair", "merged")
STATEMENT = """\
Write `bpe_merge(ids, new_id)` for one merge of byte-pair encoding on a text already turned into integer ids:
`ids` has shape `(n,)` with `n >= 2`, and `new_id` is the id the merged pair gets. Count every adjacent pair
`(ids[i], ids[i + 1])`, overlapping ones included (`0 0 0` holds the pair `(0, 0)` twice). Take the most frequent
pair; among pairs with the same count, the one met first in the text. Then scan from the left and replace each
occurrence of the pair by `new_id`, continuing after the two ids it replaced (so `0 0 0` becomes `new_id 0`).
Return `(pair, merged)`: the pair as an integer array of shape `(2,)` and the merged ids as an integer array,
shorter by the number of replacements. Leave `ids` unchanged."""
SOLUTION = '''\
def bpe_merge(ids, new_id):
    """ids: (n,) integer ids, n >= 2; new_id: the merged pair's id. Return (pair (2,), merged (m,))."""
    counts = {}
    for a, b in zip(ids[:-1], ids[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    pair = max(counts, key=counts.get)  # the first of the pairs with the largest count: the one met first
    merged, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            merged.append(new_id)
            i += 2
        else:
            merged.append(ids[i])
            i += 1
    return np.array(pair), np.array(merged)
'''
HINTS = (
    "A dict from the pair `(a, b)` to its count, filled in the order the pairs occur, remembers which came first.",
    "`max(counts, key=counts.get)` returns the first key with the largest count.",
    "Merge with an index you move yourself: two places after a replacement, one place otherwise.",
)
MISTAKES = (
    Mistake("only every other pair counted", "zip(ids[:-1], ids[1:])", "zip(ids[0::2], ids[1::2])",
            "Count every adjacent pair, at every position i: the pairs at odd positions count too."),
    Mistake("ties to the largest ids", "max(counts, key=counts.get)", "max(counts, key=lambda p: (counts[p], p))",
            "Among pairs with the same count, take the one met first in the text, not the one with the largest ids."),
    Mistake("one step after a replacement", "            merged.append(new_id)\n            i += 2\n",
            "            merged.append(new_id)\n            i += 1\n",
            "After replacing a pair, move past both of its ids: the second one is part of the new token and must "
            "not be kept or merged again."),
)


def reference(ids, new_id):
    tokens = [(int(i),) for i in ids]  # one-id tuples: the engine's merge joins two into the pair itself
    pair = _pair_counts(tokens).most_common(1)[0][0]
    merged = _merge_pair(tokens, pair)
    return np.array(pair[0] + pair[1]), np.array([new_id if len(token) == 2 else token[0] for token in merged])


# "the thee thou" with the ids ␣ 0, e 1, h 2, o 3, t 4, u 5
THE_THEE_THOU = [4, 2, 1, 0, 4, 2, 1, 1, 0, 4, 2, 3, 5]

CASES = (
    case("\"the thee thou\" as ids (␣ 0, e 1, h 2, o 3, t 4, u 5): t h (4, 2) occurs 3 times",
         ids=np.array(THE_THEE_THOU), new_id=6),
    case("three pairs tied, the one met first (1, 3) is neither the smallest nor the largest",
         ids=np.array([1, 3, 0, 2, 1, 3, 0, 2]), new_id=4),
    case("\"the thee thou\" after that merge: three pairs occur twice, (6, 1) is met first",
         ids=np.array([6, 1, 0, 6, 1, 1, 0, 6, 3, 5]), new_id=7),
    case("three equal ids (0, 0, 0): the pair twice, merged once from the left", ids=np.array([0, 0, 0]), new_id=1),
    case("\"aaabdaaabac\" as ids (a 0, b 1, c 2, d 3): (0, 0) occurs 4 times",
         ids=np.array([0, 0, 0, 1, 3, 0, 0, 0, 1, 0, 2]), new_id=4),
    case("the pair at both ends of the text", ids=np.array([0, 1, 2, 0, 1]), new_id=3),
    case("every pair once: the first one is merged", ids=np.array([0, 1, 2, 3]), new_id=4),
    case("two ids, one pair", ids=np.array([7, 7]), new_id=8),
    random_case("40 random ids from 5 symbols (seeded)", seed=501, ids=integers(5, 40), new_id=5),
    random_case("a run of five 0s between random ids from 1 to 3: (0, 0) four times, merged twice", seed=502,
                ids=lambda rng: np.concatenate([rng.integers(1, 4, 8), [0, 0, 0, 0, 0], rng.integers(1, 4, 8)]),
                new_id=4),
)


# The statement: integer ids of any length n >= 2 from a vocabulary of any size; few symbols make runs and ties.
DOMAIN = Domain(sizes={"n": range(2, 2001), "symbols": range(1, 257)},
                make=lambda d: {"ids": d.integers(0, d.symbols, d.n), "new_id": d.symbols})
