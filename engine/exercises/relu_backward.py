"""Exercise: the backward of ReLU, with the gradient at exactly 0 taken as 0."""
from ..activations import relu_backward as _relu_backward, relu_forward as _relu_forward
from ._domain import LEADING, Domain
from ._spec import Gradcheck, Mistake, case, normal, random_case, through_cache

TITLE = "ReLU backward"
PAGE = "layers/activations.md"
ORDER = 1
KIND = "write"
FUNCTION = "relu_backward"
OUTPUTS = ("dx",)
STATEMENT = """\
`relu_forward(x)` is given. Write `relu_backward(dy, x)` returning `dx`, the gradient with respect to the input
`x` (any shape) given the upstream gradient `dy` (same shape). ReLU passes the gradient where `x > 0` and blocks it
elsewhere; at exactly `x = 0`, where the derivative does not exist, take it as 0 like the engine does. Arrays are
float64 (NumPy's default), and so is `dx`; leave the inputs unchanged."""
SOLUTION = '''\
def relu_forward(x):
    return np.maximum(x, 0.0)


def relu_backward(dy, x):
    """dy and x have the same shape. Return dx."""
    return dy * (x > 0)
'''
HINTS = (
    "The derivative of max(0, x) is 1 for x > 0 and 0 for x < 0.",
    "Multiply the upstream gradient by that 0/1 pattern (the chain rule).",
)
MISTAKES = (
    Mistake("gradient 1 at zero", "dy * (x > 0)", "dy * (x >= 0)",
            "At exactly x = 0 this passes the gradient; the convention here (and in the engine) is 0 there: "
            "use `x > 0`."),
    Mistake("mask from the upstream gradient", "dy * (x > 0)", "dy * (dy > 0)",
            "The 0/1 pattern comes from the forward's input x, not from the upstream gradient dy."),
    Mistake("upstream gradient forgotten", "dy * (x > 0)", "(x > 0) * 1.0",
            "That is ReLU's local derivative alone; the chain rule multiplies it by the upstream gradient `dy`."),
)
GRADCHECK = Gradcheck(forward="relu_forward", args=("x",), wrt=("x",), upstream="dy")


reference = through_cache(_relu_backward, _relu_forward)


CASES = (
    case("a 2×3 input without zeros", dy=[[1.0, -2.0, 3.0], [0.5, 0.5, -1.0]], x=[[-1.0, 2.0, 0.5], [3.0, -0.1, 4.0]]),
    case("a 1×4 input with x = 0 in it", dy=[[2.0, 2.0, -3.0, 1.0]], x=[[0.0, 1.0, 0.0, -2.0]]),
    random_case("a random (2, 3, 5) input", seed=11, dy=normal(2, 3, 5), x=normal(2, 3, 5)),
    case("a 1-D input of shape (4,) with x = 0 and x = -0.0", dy=[1.0, 1.0, 1.0, 1.0], x=[0.0, -0.0, 1e-300, -1e-300]),
)


def _upstream(d):
    """Any shape; x with exact zeros at times."""
    x = d.normal(*d.lead(), d.rows, d.n, scale=(1.0, 1e-300, 1e3))
    if d.pick(False, True):
        x[..., ::3] = 0.0
    return {"dy": d.normal(*x.shape), "x": x}


DOMAIN = Domain(sizes={**LEADING, "rows": range(1, 65), "n": range(1, 769)}, make=_upstream)
