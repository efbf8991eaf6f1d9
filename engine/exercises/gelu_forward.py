"""Exercise: GPT-2's GELU, the tanh approximation."""
from ..activations import gelu_tanh_forward as _gelu_tanh_forward
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "GELU (tanh approximation)"
PAGE = "layers/activations.md"
ORDER = 2
KIND = "write"
FUNCTION = "gelu"
OUTPUTS = ("y",)
STATEMENT = """\
Write `gelu(x)` returning GPT-2's GELU of every entry of `x` (any shape, entries as large as a few hundred):
\\(\\tfrac12 x\\,(1 + \\tanh(\\sqrt{2/\\pi}\\,(x + 0.044715\\,x^3)))\\). Arrays are float64 (NumPy's default); leave
`x` unchanged."""
SOLUTION = '''\
def gelu(x):
    """Elementwise GELU, tanh approximation. Return y with the shape of x."""
    inner = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + np.tanh(inner))
'''
HINTS = (
    "Build the argument of tanh first, then multiply elementwise by 0.5 * x.",
    "The cubic term is `0.044715 * x ** 3`, inside the bracket that is scaled by sqrt(2 / pi).",
)
MISTAKES = (
    Mistake("square instead of cube", "0.044715 * x * x * x", "0.044715 * x ** 2",
            "The correction term is cubic: `0.044715 * x ** 3`."),
    Mistake("half forgotten", "return 0.5 * x * (1.0 + np.tanh(inner))", "return x * (1.0 + np.tanh(inner))",
            "Without the factor 0.5, GELU would approach 2x for large x instead of x."),
    Mistake("sqrt(2/pi) forgotten", "inner = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x * x * x)",
            "inner = x + 0.044715 * x * x * x", "The argument of tanh is scaled by sqrt(2 / pi)."),
)


reference = first_output(_gelu_tanh_forward)


CASES = (
    case("the values -2, -1, 0, 1, 2", x=[[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    random_case("a random (3, 4, 5) input, scale 3", seed=12, x=normal(3, 4, 5, scale=3.0)),
    random_case("a 0-d input, a single value", seed=52, x=normal(scale=2.0)),
    random_case("a random (5, 4) input with values up to about ±300", seed=53, x=normal(5, 4, scale=100.0)),
)
