"""Central differences and the relative error."""
import numpy as np

from engine.examples.fmt import format_number
from engine import exercises

from . import Correct, Wrong

FIRST = "f(x) = x0^3 + 2 x1^3 - x2^3 + (x0 + x1 + x2)^2 at x = (1, 2, 3)"
MATRIX = "f(x) = sum(w * x^3) + (sum x)^2 at a 2×3 x"
WITH_H = "the same f at x = (1, 2, 3) with h = 0.1 passed (its central difference is off by w h^2)"
BY_HAND = "a = [3, 4] and b = [3, 0]"
TINY = "tiny arrays, entries around 1e-150, where any constant added below would dominate"


def _tiny_case_message():
    """The +1e-8 program's sentence on the tiny case, the truth computed here from its definition."""
    inputs = next(c for c in exercises.get("relative-error").CASES if c.label == TINY).make()
    a, b = inputs["a"], inputs["b"]
    truth = np.sqrt(np.sum((a - b) ** 2)) / (np.sqrt(np.sum(a ** 2)) + np.sqrt(np.sum(b ** 2)))
    damped = np.sqrt(np.sum((a - b) ** 2)) / (np.sqrt(np.sum(a ** 2)) + np.sqrt(np.sum(b ** 2)) + 1e-8)
    assert truth > 0.1 and damped < 1e-100  # the point of the case: 1e-8 swamps norms of ~3e-150
    return f"On {TINY}, `error` is {format_number(damped, 4)} but should be {format_number(truth, 4)}."


PROGRAMS = [
    Correct("numerical-gradient", "CS231n's eval_numerical_gradient", '''
# after CS231n's gradient_check.py eval_numerical_gradient (f reads x here, so it takes no argument)
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h
        fxph = f()
        x[ix] = oldval - h
        fxmh = f()
        x[ix] = oldval
        grad[ix] = (fxph - fxmh) / (2 * h)
        it.iternext()
    return grad
'''),
    Correct("numerical-gradient", "+= h, -= 2h, += h on a flat view", '''
def numerical_gradient(f, x, h=1e-5):
    flat = x.reshape(-1)          # a view: nudging it nudges x
    grad = np.empty(flat.size)
    for i in range(flat.size):
        flat[i] += h
        up = f()
        flat[i] -= 2 * h
        down = f()
        flat[i] += h              # back, up to round-off
        grad[i] = (up - down) / (2 * h)
    return grad.reshape(x.shape)
'''),
    Correct("numerical-gradient", "np.unravel_index over a range", '''
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros(x.shape)
    for k in range(x.size):
        i = np.unravel_index(k, x.shape)
        keep = x[i].copy()
        x[i] = keep + h
        plus = f()
        x[i] = keep - h
        minus = f()
        x[i] = keep
        grad[i] = (plus - minus) / h / 2
    return grad
'''),
    Wrong("numerical-gradient", "a copy of x nudged, which f never reads", '''
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        nudged = x.copy()
        nudged[i] += h
        plus = f()
        nudged[i] -= 2 * h
        grad[i] = (plus - f()) / (2 * h)
    return grad
''', f"On {FIRST}, `grad` is wrong in 3 of 3 entries."),  # all 0; the gradient is (15, 36, -15)
    Wrong("numerical-gradient", "h fixed at 1e-5", '''
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        original = x[i]
        x[i] = original + 1e-5
        plus = f()
        x[i] = original - 1e-5
        minus = f()
        x[i] = original
        grad[i] = (plus - minus) / 2e-5
    return grad
''', f"On {WITH_H}, `grad` is wrong in 3 of 3 entries."),  # h = 0.1 adds w * 0.01 to each entry
    Wrong("numerical-gradient", "whole rows nudged at once", '''
def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    for i in range(len(x)):
        original = x[i].copy()
        x[i] = original + h
        plus = f()
        x[i] = original - h
        minus = f()
        x[i] = original
        grad[i] = (plus - minus) / (2 * h)
    return grad
''', f"On {MATRIX}, `grad` is wrong in 6 of 6 entries."),
    # each row gets the sum of its partials (32.25 and 11.25), none of which is that sum alone

    Correct("relative-error", "square roots of sums", '''
def relative_error(a, b):
    below = np.sqrt(np.sum(a ** 2)) + np.sqrt(np.sum(b ** 2))
    return 0.0 if below == 0 else float(np.sqrt(np.sum((a - b) ** 2)) / below)
'''),
    Correct("relative-error", "flattened arrays, the zero case by np.any", '''
def relative_error(a, b):
    if not np.any(a) and not np.any(b):
        return 0.0
    a, b = a.ravel(), b.ravel()
    return float(np.linalg.norm(a - b) / (np.linalg.norm(a) + np.linalg.norm(b)))
'''),
    Correct("relative-error", "both scaled by the largest entry first", '''
def relative_error(a, b):
    s = max(np.abs(a).max(), np.abs(b).max())
    if s == 0:
        return 0.0
    a, b = a / s, b / s          # the ratio does not depend on the scale, and nothing overflows
    return float(np.linalg.norm(a - b) / (np.linalg.norm(a) + np.linalg.norm(b)))
'''),
    Wrong("relative-error", "1e-8 added below", '''
def relative_error(a, b):
    return float(np.linalg.norm(a - b) / (np.linalg.norm(a) + np.linalg.norm(b) + 1e-8))
''', _tiny_case_message()),
    Wrong("relative-error", "squared norms", '''
def relative_error(a, b):
    below = np.sum(a ** 2) + np.sum(b ** 2)
    return 0.0 if below == 0 else float(np.sum((a - b) ** 2) / below)
''', f"On {BY_HAND}, `error` is 0.4706 but should be 0.5000."),  # 16 / (25 + 9) instead of 4 / (5 + 3)
    Wrong("relative-error", "the larger norm below", '''
def relative_error(a, b):
    below = max(np.linalg.norm(a), np.linalg.norm(b))
    return 0.0 if below == 0 else float(np.linalg.norm(a - b) / below)
''', f"On {BY_HAND}, `error` is 0.8000 but should be 0.5000."),  # 4 / 5
]
