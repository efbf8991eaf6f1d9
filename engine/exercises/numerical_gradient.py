"""Exercise: one step of gradient checking, the central-difference gradient."""
import numpy as np

from ..gradcheck import numerical_gradient as _numerical_gradient
from ._domain import LEADING, Domain
from ._spec import Case, Mistake

TITLE = "Central differences"
PAGE = "model/gradcheck.md"
ORDER = 1
KIND = "write"
FUNCTION = "numerical_gradient"
OUTPUTS = ("grad",)
STATEMENT = """\
Write `numerical_gradient(f, x, h=1e-5)` returning an array shaped like `x` whose every entry is the central
difference \\((f(x + h\\,e_i) - f(x - h\\,e_i)) / 2h\\). `f()` takes no arguments: it reads the float array `x`
itself, so nudge one entry of `x` in place, call `f()`, and put the entry back before moving on. `x` is float64
(NumPy's default), and so is the gradient; when you return, `x` must hold its original values again."""
SOLUTION = '''\
def numerical_gradient(f, x, h=1e-5):
    """f() -> float reads the float array x. Return the gradient of f with respect to x (shape of x)."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        original = x[i]
        x[i] = original + h
        f_plus = f()
        x[i] = original - h
        f_minus = f()
        x[i] = original
        grad[i] = (f_plus - f_minus) / (2 * h)
    return grad
'''
HINTS = (
    "`np.ndindex(x.shape)` visits every index of an array of any shape.",
    "Keep the entry's original value, set it to original + h, call f, then original - h, call f, then restore it.",
)
MISTAKES = (
    Mistake("one-sided difference",
            "        x[i] = original - h\n        f_minus = f()\n        x[i] = original\n"
            "        grad[i] = (f_plus - f_minus) / (2 * h)\n",
            "        x[i] = original\n        f_minus = f()\n        grad[i] = (f_plus - f_minus) / h\n",
            "This is the forward difference (f(x + h) - f(x)) / h, whose error shrinks only like h. Central "
            "differences, (f(x + h) - f(x - h)) / 2h, are accurate to order h^2."),
    Mistake("entry not restored", "        x[i] = original\n        grad[i]", "        grad[i]",
            "Each probe must put its entry back: otherwise x stays nudged and every later entry is measured at the "
            "wrong point."),
    Mistake("divided by h", "(f_plus - f_minus) / (2 * h)", "(f_plus - f_minus) / h",
            "f(x + h) and f(x - h) are 2h apart, so divide their difference by 2h."),
)


def reference(f, x, h=1e-5):
    return _numerical_gradient(f, x, h)


def _cubic_case(label, x, weights, h=None):
    """f(x) = sum(w * x^3) + (sum x)^2: curved, and coupling the entries, so that each wrong variant (an entry
    left nudged included) gives a different gradient. ``h`` is passed when given."""
    def make():
        point = np.array(x, dtype=np.float64)
        inputs = {"f": lambda: float(np.sum(weights * point ** 3) + np.sum(point) ** 2), "x": point}
        return inputs if h is None else {**inputs, "h": h}
    return Case(label, make)


CASES = (
    _cubic_case("f(x) = x0^3 + 2 x1^3 - x2^3 + (x0 + x1 + x2)^2 at x = (1, 2, 3)", [1.0, 2.0, 3.0],
                np.array([1.0, 2.0, -1.0])),
    _cubic_case("f(x) = sum(w * x^3) + (sum x)^2 at a 2×3 x", [[0.5, -1.0, 2.0], [1.5, 0.0, -2.0]],
                np.array([[1.0, 0.5, 2.0], [-1.0, 3.0, 1.0]])),
    _cubic_case("the same f at x = (1, 2, 3) with h = 0.1 passed (its central difference is off by w h^2)",
                [1.0, 2.0, 3.0], np.array([1.0, 2.0, -1.0]), h=0.1),
    _cubic_case("f(x) = sum(w * x^3) + (sum x)^2 at a 0-d x", 1.5, np.array(2.0)),
    _cubic_case("f(x) = sum(w * x^3) + (sum x)^2 at a (2, 2, 2) x", np.arange(8.0).reshape(2, 2, 2) / 4 - 1,
                np.linspace(-1.0, 1.0, 8).reshape(2, 2, 2)),
)


def _function(d):
    """f reads x (any shape, 0-d too): sum(w x^3) + (sum x)^2, curved and coupling the entries; h a parameter."""
    x = d.normal(*d.lead(), *(d.n,) * (d.n > 0))
    weights = d.normal(*x.shape)
    return {"f": lambda: float(np.sum(weights * x ** 3) + np.sum(x) ** 2), "x": x, "h": d.pick(1e-4, 1e-3, 0.1)}


# x is read by f, so it is not replaced by a strided copy. Sizes stay small: f's rounding, divided by h, must stay
# inside the tolerance for any correct order of the nudges.
DOMAIN = Domain(sizes={**LEADING, "n": (0, 1, 2, 5, 12)}, make=_function, strided=False)
