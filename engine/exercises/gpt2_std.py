"""Exercise: GPT-2's initial standard deviation, scaled down for residual-writing projections."""
from ..init import init_weight as _init_weight
from ._domain import Domain
from ._spec import Mistake, case, random_case

TITLE = "GPT-2 scaled initialisation"
PAGE = "layers/initialisation.md"
ORDER = 1
KIND = "write"
FUNCTION = "gpt2_std"
OUTPUTS = ("std",)
STATEMENT = """\
Write `gpt2_std(num_layers, residual)` returning, as a float, the standard deviation GPT-2 starts a weight matrix
with. The base value is 0.02. Two matrices per block, the attention output `wo` and the MLP's `ff2_w`, add their
result straight into the residual stream (`residual` is `True` for them): over `L = num_layers` blocks that is
`2L` independent contributions whose variances add up, so each gets a share \\(1/(2L)\\) of the variance, a
standard deviation of \\(0.02/\\sqrt{2L}\\). Every other matrix keeps 0.02. `num_layers` is any integer from 1
up. The result is a float64 number."""
SOLUTION = '''\
def gpt2_std(num_layers, residual):
    """num_layers: L >= 1; residual: True for wo and ff2_w. Return the standard deviation."""
    std = 0.02
    if residual:
        std = std / np.sqrt(2 * num_layers)
    return std
'''
HINTS = (
    "Start from 0.02; only the residual-writing projections are scaled.",
    "Each of the L blocks writes into the stream twice (attention and MLP), so 2L contributions add up.",
)
MISTAKES = (
    Mistake("1/sqrt(L)", "np.sqrt(2 * num_layers)", "np.sqrt(num_layers)",
            "Every block writes into the residual stream *twice* (attention and MLP): scale by 1/sqrt(2L)."),
    Mistake("1/(2L) without the root", "np.sqrt(2 * num_layers)", "(2 * num_layers)",
            "Variances add, so the standard deviation shrinks with the square root: divide by sqrt(2L), not 2L."),
    Mistake("all matrices scaled", "    if residual:\n        std = std / np.sqrt(2 * num_layers)\n",
            "    std = std / np.sqrt(2 * num_layers)\n",
            "Only `wo` and `ff2_w`, whose outputs are added to the residual stream, get the smaller spread; every "
            "other matrix keeps 0.02."),
)


class _StdProbe:
    """Stands in for the random generator and hands back the standard deviation the engine asks for."""

    def normal(self, loc, scale, size):
        return scale


def reference(num_layers, residual):
    return float(_init_weight("gpt2", (1, 1), _StdProbe(), num_layers, residual=residual))


CASES = (
    case("L = 2, a residual-writing projection", num_layers=2, residual=True),
    case("L = 12, a matrix that is not residual-writing", num_layers=12, residual=False),
    case("L = 12, a residual-writing projection", num_layers=12, residual=True),
    case("L = 1, a residual-writing projection", num_layers=1, residual=True),
    random_case("an L drawn at random between 3 and 48 (seeded), residual-writing", seed=74,
                num_layers=lambda rng: int(rng.integers(3, 49)), residual=True),
    random_case("another L drawn at random between 3 and 48 (seeded), not residual-writing", seed=75,
                num_layers=lambda rng: int(rng.integers(3, 49)), residual=False),
)

# The statement: num_layers any integer from 1 up, residual or not.
DOMAIN = Domain(sizes={"L": range(1, 100_001)}, make=lambda d: {"num_layers": d.L, "residual": d.pick(True, False)},
                budget=1 << 20)
