"""Exercise: share key/value heads with groups of query heads."""
from ..attention import expand_kv as _expand_kv
from ._spec import Mistake, normal, random_case

TITLE = "Grouped-query attention: repeat the key heads"
PAGE = "layers/gqa.md"
ORDER = 1
KIND = "write"
FUNCTION = "repeat_kv"
OUTPUTS = ("expanded",)
STATEMENT = """\
Write `repeat_kv(kv, num_heads)` for keys or values `kv` of shape `(B, G, T, hs)` whose `G` heads are shared by
`num_heads` query heads (`G` divides it): query head `h` reads key head `h // (num_heads // G)`, so consecutive
query heads share. Return `expanded` of shape `(B, num_heads, T, hs)`; leave `kv` unchanged."""
SOLUTION = '''\
def repeat_kv(kv, num_heads):
    """kv: (B, G, T, hs). Return (B, num_heads, T, hs), each key head repeated for its group."""
    group = num_heads // kv.shape[1]
    return np.repeat(kv, group, axis=1)
'''
HINTS = (
    "Each key head appears `num_heads // G` times in a row: head 0, head 0, head 1, head 1, ... for groups of 2.",
    "`np.repeat(kv, group, axis=1)` repeats each entry of axis 1 in place; `np.tile` would repeat the whole axis.",
)
MISTAKES = (
    Mistake("tiled instead of repeated", "return np.repeat(kv, group, axis=1)",
            "return np.tile(kv, (1, group, 1, 1))",
            "np.tile gives heads 0, 1, 0, 1: query head 1 would read key head 1, not 0. Use `np.repeat` so each "
            "key head serves consecutive query heads."),
)


def reference(kv, num_heads):
    return _expand_kv(kv, num_heads)


CASES = (
    random_case("two key heads for four query heads, shape (1, 2, 3, 2)", seed=7, kv=normal(1, 2, 3, 2),
                num_heads=4),
    random_case("one key head for three query heads (multi-query), shape (2, 1, 4, 3)", seed=8,
                kv=normal(2, 1, 4, 3), num_heads=3),
    random_case("as many key heads as query heads (multi-head), shape (1, 3, 2, 2)", seed=9, kv=normal(1, 3, 2, 2),
                num_heads=3),
)
