"""Exercise: SwiGLU forward."""
from ..swiglu import swiglu_forward as _swiglu_forward
from ._spec import Mistake, case, first_output, normal, random_case

TITLE = "SwiGLU forward"
PAGE = "layers/swiglu.md"
ORDER = 1
KIND = "write"
FUNCTION = "swiglu_forward"
OUTPUTS = ("y",)
STATEMENT = """\
Write `swiglu_forward(x, w_gate, w_up, w_down)` for `x` of shape `(..., d)`, `w_gate` and `w_up` `(d, F)` and
`w_down` `(F, d)`: the gate `x @ w_gate` goes through \\(\\mathrm{silu}(g) = g\\,\\sigma(g)\\), multiplies the up
projection `x @ w_up` entry by entry, and the product is projected down by `w_down`. No biases. Return `y` with the
shape of `x`."""
SOLUTION = '''\
def swiglu_forward(x, w_gate, w_up, w_down):
    """x: (..., d), w_gate and w_up: (d, F), w_down: (F, d). Return y with the shape of x."""
    gate = x @ w_gate
    silu = gate / (1.0 + np.exp(-gate))
    return (silu * (x @ w_up)) @ w_down
'''
HINTS = (
    "silu(g) = g · sigmoid(g) = g / (1 + exp(−g)).",
    "Only the gate goes through silu; the up projection is used as it is, and the two are multiplied entry by entry "
    "before `@ w_down`.",
)
MISTAKES = (
    Mistake("silu on the up projection", "return (silu * (x @ w_up)) @ w_down",
            "return ((x @ w_gate) * (x @ w_up) / (1.0 + np.exp(-(x @ w_up)))) @ w_down",
            "The gate is the projection that goes through silu: `silu(x @ w_gate) * (x @ w_up)`."),
    Mistake("sigmoid instead of silu", "silu = gate / (1.0 + np.exp(-gate))", "silu = 1.0 / (1.0 + np.exp(-gate))",
            "SwiGLU's gate is silu(g) = g · sigmoid(g), not sigmoid(g) alone (that would be the original GLU)."),
)
reference = first_output(_swiglu_forward)


CASES = (
    case("the page's two rows", x=[[1.0, -1.0], [0.5, 2.0]], w_gate=[[1.0, 0.0, -2.0], [0.0, 1.0, 1.0]],
         w_up=[[2.0, 1.0, 0.0], [0.0, 1.0, 1.0]], w_down=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
    random_case("a random batch of shape (2, 3, 4) with F = 6", seed=5, x=normal(2, 3, 4), w_gate=normal(4, 6),
                w_up=normal(4, 6), w_down=normal(6, 4)),
)
