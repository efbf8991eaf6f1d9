"""Exercise: GPT-2's initial standard deviation, scaled down for residual-writing projections."""
from ..init import init_weight as _init_weight
from ._spec import Mistake, case, starter

TITLE = "GPT-2 scaled initialisation"
PAGE = "layers/initialisation.md"
ORDER = 1
KIND = "write"
FUNCTION = "gpt2_std"
OUTPUTS = ("std",)
STATEMENT = """\
GPT-2 draws its weight matrices from a normal distribution with standard deviation 0.02. The projections that
write into the residual stream (the attention output `wo` and the MLP's second matrix `ff2_w`) use
\\(0.02/\\sqrt{2L}\\) instead, for `L` blocks, because each block adds two of them to the same stream. Write
`gpt2_std(num_layers, residual)` returning the standard deviation (a float) for a matrix of that kind."""
SOLUTION = '''\
def gpt2_std(num_layers, residual):
    """num_layers: L >= 1; residual: True for wo and ff2_w. Return the standard deviation."""
    std = 0.02
    if residual:
        std = std / np.sqrt(2 * num_layers)
    return std
'''
STARTER = starter(SOLUTION, FUNCTION)
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
            "Only the projections that write into the residual stream are scaled; the others keep 0.02."),
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
)
