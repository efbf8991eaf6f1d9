"""Exercise: the derivative of GPT-2's tanh GELU."""
from ..activations import gelu_tanh_backward as _gelu_tanh_backward, gelu_tanh_forward as _gelu_tanh_forward
from ._spec import Gradcheck, Mistake, case, normal, random_case, starter

TITLE = "GELU backward"
PAGE = "layers/activations.md"
ORDER = 3
KIND = "write"
FUNCTION = "gelu_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
`gelu(x)` is given. Write `gelu_backward(dy, x)` returning `dx = dy * gelu'(x)`. With
\\(t = \\tanh(u)\\), \\(u = \\sqrt{2/\\pi}\\,(x + 0.044715\\,x^3)\\), GELU is \\(\\tfrac12 x (1 + t)\\): use the
product rule, \\(\\tanh'(u) = 1 - t^2\\) and the derivative of u."""
SOLUTION = '''\
def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def gelu_backward(dy, x):
    """dy and x have the same shape. Return dx."""
    t = np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3))
    dt_dx = (1.0 - t ** 2) * np.sqrt(2.0 / np.pi) * (1.0 + 3 * 0.044715 * x ** 2)
    return dy * (0.5 * (1.0 + t) + 0.5 * x * dt_dx)
'''
STARTER = starter(SOLUTION, FUNCTION)
HINTS = (
    "d/dx [0.5 x (1 + t)] = 0.5 (1 + t) + 0.5 x dt/dx.",
    "dt/dx = (1 - t^2) * sqrt(2/pi) * (1 + 3 * 0.044715 x^2).",
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


def reference(dy, x):
    return _gelu_tanh_backward(dy, _gelu_tanh_forward(x)[1])


CASES = (
    case("the values -2, -1, 0, 1, 2 with dy = 1", dy=[[1.0, 1.0, 1.0, 1.0, 1.0]], x=[[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    random_case("a random (2, 3, 5) input, scale 2", seed=13, dy=normal(2, 3, 5), x=normal(2, 3, 5, scale=2.0)),
)
