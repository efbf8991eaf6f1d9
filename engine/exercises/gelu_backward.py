"""Exercise: the derivative of GPT-2's tanh GELU."""
from ..activations import gelu_tanh_backward as _gelu_tanh_backward, gelu_tanh_forward as _gelu_tanh_forward
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "GELU backward"
PAGE = "layers/activations.md"
ORDER = 3
KIND = "write"
FUNCTION = "gelu_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
`gelu(x)` is given, entry by entry: \\(\\tfrac12 x\\,(1 + \\tanh u)\\) with
\\(u = \\sqrt{2/\\pi}\\,(x + 0.044715\\,x^3)\\). Write `gelu_backward(dy, x)` returning `dx = dy * gelu'(x)`, the
shape of `x` (any shape), from the upstream gradient `dy`. Derive `gelu'`; the hints go one step at a time and the
last one gives the formula. Arrays are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x * x * x)))


def gelu_backward(dy, x):
    """dy and x have the same shape. Return dx."""
    t = np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x * x * x))
    dt_dx = (1.0 - t ** 2) * np.sqrt(2.0 / np.pi) * (1.0 + 3 * 0.044715 * x ** 2)
    return dy * (0.5 * (1.0 + t) + 0.5 * x * dt_dx)
'''
HINTS = (
    "With t = tanh(u), gelu is x times 0.5 (1 + t), and t depends on x too: its derivative has two terms, "
    "0.5 (1 + t) + 0.5 x dt/dx.",
    "dt/dx = tanh'(u) du/dx, and the derivative of tanh is 1 - tanh^2, so tanh'(u) = 1 - t^2.",
    "du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2).",
    "dx = dy * (0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)).",
)
MISTAKES = (
    Mistake("product rule half missing", "return dy * (0.5 * (1.0 + t) + 0.5 * x * dt_dx)",
            "return dy * 0.5 * (1.0 + t)",
            "GELU is x times a function of x, so the product rule gives two terms; the one with dt/dx is missing."),
    Mistake("derivative of tanh", "(1.0 - t ** 2)", "(1.0 - t)",
            "The derivative of tanh(u) is 1 - tanh(u)^2, so the factor is `1 - t ** 2`."),
    Mistake("inner derivative", "(1.0 + 3 * 0.044715 * x ** 2)", "(1.0 + 0.044715 * x ** 2)",
            "The derivative of 0.044715 x^3 is 3 * 0.044715 x^2: the 3 is missing."),
)
GRADCHECK = Gradcheck(forward="gelu", args=("x",), wrt=("x",), upstream="dy")


reference = through_cache(_gelu_tanh_backward, _gelu_tanh_forward)


CASES = (
    case("the values -2, -1, 0, 1, 2 with dy = 1", dy=[[1.0, 1.0, 1.0, 1.0, 1.0]], x=[[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    random_case("a random (2, 3, 5) input, scale 2", seed=13, dy=normal(2, 3, 5), x=normal(2, 3, 5, scale=2.0)),
    random_case("a single value, a 0-d array", seed=40, dy=normal(), x=normal(scale=2.0)),
    random_case("a random (4, 6) input with values up to about ±30, where tanh saturates", seed=41, dy=normal(4, 6),
                x=normal(4, 6, scale=10.0)),
)
