"""Exercise: the causal mask of self-attention."""
from ..attention import causal_mask as _causal_mask
from ._domain import Domain
from ._spec import Mistake, case, random_case

TITLE = "Causal mask"
PAGE = "layers/attention.md"
ORDER = 1
KIND = "write"
FUNCTION = "causal_mask"
OUTPUTS = ("mask",)
STATEMENT = """\
Write `causal_mask(T)` returning a boolean array of shape `(T, T)`: entry `[i, j]` is `True` when the query at
position `i` may look at the key at position `j`, that is when `j <= i` (itself and the past, never the future). `T`
is any length from 1 up; the mask is a bool array, not float64."""
SOLUTION = '''\
def causal_mask(T):
    """Return a (T, T) bool array, True where key j may be attended from query i (j <= i)."""
    return np.tril(np.ones((T, T), dtype=bool))
'''
HINTS = (
    "Row i is the query, column j the key: the allowed entries are on and below the diagonal.",
    "`np.tril` keeps the lower triangle of a matrix; start from `np.ones((T, T), dtype=bool)`.",
)
MISTAKES = (
    Mistake("upper triangle", "np.tril(", "np.triu(",
            "This allows the future (j >= i). Rows are queries and columns keys: keep the lower triangle, j <= i."),
    Mistake("diagonal excluded", "np.tril(np.ones((T, T), dtype=bool))", "np.tril(np.ones((T, T), dtype=bool), k=-1)",
            "A position may attend to itself: the diagonal belongs to the mask (j <= i, not j < i)."),
    Mistake("numbers instead of booleans", "np.ones((T, T), dtype=bool)", "np.ones((T, T))",
            "The mask should be booleans (`dtype=bool`), so it can select with `np.where(mask, scores, -np.inf)`."),
)


def reference(T):
    return _causal_mask(T)


def _random_length(low, high):
    """A sequence length drawn from the case's generator, as a plain int."""
    return lambda rng: int(rng.integers(low, high))


CASES = (case("T = 3", T=3), case("T = 1", T=1), case("T = 6", T=6),
         case("T = 40, more than a 16×16 or 32×32 buffer holds", T=40),
         random_case("a T drawn at random between 7 and 39 (seeded)", seed=60, T=_random_length(7, 40)),
         random_case("another T drawn at random between 7 and 39 (seeded)", seed=61, T=_random_length(7, 40)))

# The statement: any length T from 1 up (the model's contexts reach 1024).
DOMAIN = Domain(sizes={"T": range(1, 1025)}, make=lambda d: {"T": d.T}, strided=False)
