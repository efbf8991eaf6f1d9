"""Exercise: draw a GPT-2 weight matrix with a given random generator."""
from ..init import init_weight as _init_weight
from ._domain import Domain
from ._spec import Mistake, generator, random_case

TITLE = "Drawing GPT-2 weights"
PAGE = "layers/initialisation.md"
ORDER = 2
KIND = "write"
FUNCTION = "gpt2_init"
OUTPUTS = ("W",)
STATEMENT = """\
Write `gpt2_init(shape, rng, num_layers, residual)` returning a float64 weight matrix of `shape` whose entries are
normal, centred on 0, with spread 0.02, or \\(0.02/\\sqrt{2L}\\) for `L = num_layers` when `residual` is `True`.
Draw the entries from the given `numpy.random.Generator` `rng`, as `rng.normal(0.0, std, size=shape)` does, and
draw nothing else from it: the tests compare with the engine's matrix from the same seed."""
SOLUTION = '''\
def gpt2_init(shape, rng, num_layers, residual):
    """shape: (n_in, n_out); rng: numpy Generator; residual: True for wo and ff2_w. Return W."""
    std = 0.02 / np.sqrt(2 * num_layers) if residual else 0.02
    return rng.normal(0.0, std, size=shape)
'''
HINTS = (
    "Choose the standard deviation first, then draw once.",
    "`rng.normal(loc, scale, size)` takes the standard deviation, not the variance.",
)
MISTAKES = (
    Mistake("variance given as scale", "rng.normal(0.0, std, size=shape)", "rng.normal(0.0, std ** 2, size=shape)",
            "`rng.normal` takes the standard deviation as its scale; passing std ** 2 makes the weights far too "
            "small."),
    Mistake("scaled up instead of down", "0.02 / np.sqrt(2 * num_layers)", "0.02 * np.sqrt(2 * num_layers)",
            "Residual-writing projections start *smaller*: divide 0.02 by sqrt(2L)."),
)


def reference(shape, rng, num_layers, residual):
    return _init_weight("gpt2", shape, rng, num_layers, residual=residual)


CASES = (
    random_case("shape (3, 4), L = 2, a residual-writing projection, default_rng(0)", seed=0, shape=(3, 4),
                rng=generator(), num_layers=2, residual=True),
    random_case("shape (5, 2), L = 6, not residual-writing, default_rng(1)", seed=1, shape=(5, 2), rng=generator(),
                num_layers=6, residual=False),
    random_case("shape (16, 48), L = 12, a residual-writing projection, default_rng(76)", seed=76, shape=(16, 48),
                rng=generator(), num_layers=12, residual=True),
    random_case("shape (7,), L = 1, residual-writing, default_rng(77)", seed=77, shape=(7,), rng=generator(),
                num_layers=1, residual=True),
)

# The statement: any shape (a vector too), any L from 1 up, residual or not, any generator.
DOMAIN = Domain(
    sizes={"rows": (0, 1, 3, 768), "n": range(1, 3073), "L": range(1, 97)},
    make=lambda d: {"shape": (d.rows, d.n) if d.rows else (d.n,), "rng": d.generator(), "num_layers": d.L,
                    "residual": d.pick(True, False)},
)
