"""Exercise: clip two gradients together by their global norm."""
from ..optim import clip_grad_norm as _clip_grad_norm
from ._spec import Mistake, case, normal, random_case

TITLE = "Clipping by the global norm"
PAGE = "model/training.md"
ORDER = 2
KIND = "write"
FUNCTION = "clip_gradients"
OUTPUTS = ("g1_clipped", "g2_clipped")
STATEMENT = """\
Write `clip_gradients(g1, g2, max_norm)` returning the two gradients `(g1_clipped, g2_clipped)` after clipping by
their *global* norm \\(\\sqrt{\\sum g_1^2 + \\sum g_2^2}\\): when it exceeds `max_norm`, multiply both by
`max_norm / norm`; otherwise return them unchanged. That includes two all-zero gradients, whose norm is 0: return
them as they are, without dividing by the norm. One common factor keeps the direction of the whole update.
Use exactly `max_norm / norm`: PyTorch's `max_norm / (norm + 1e-6)` moves the result by about `1e-6 / norm`
relative, more than the tests' tolerance (relative 1e-8). Arrays are float64 (NumPy's default). You may scale
`g1` and `g2` in place, as an optimiser's clipping does, or return new arrays; either way return both."""
SOLUTION = '''\
def clip_gradients(g1, g2, max_norm):
    """g1, g2: arrays of any shapes; max_norm > 0. Return (g1_clipped, g2_clipped)."""
    norm = np.sqrt(np.sum(g1 ** 2) + np.sum(g2 ** 2))
    if norm > max_norm:  # only shrink; a norm of 0 never gets here
        scale = max_norm / norm
        return g1 * scale, g2 * scale
    return g1, g2
'''
HINTS = (
    "The global norm is the square root of the sum of *all* squared entries of both arrays.",
    "Only shrink: `if norm > max_norm:` scale both by max_norm / norm, else return them as they are. Testing "
    "first also keeps a zero norm away from the division.",
)
MISTAKES = (
    Mistake("always rescaled", "    if norm > max_norm:  # only shrink; a norm of 0 never gets here\n        scale",
            "    if True:\n        scale",
            "Clipping only shrinks: a gradient whose norm is already below max_norm is returned unchanged."),
    Mistake("each array clipped alone",
            "    norm = np.sqrt(np.sum(g1 ** 2) + np.sum(g2 ** 2))\n"
            "    if norm > max_norm:  # only shrink; a norm of 0 never gets here\n"
            "        scale = max_norm / norm\n        return g1 * scale, g2 * scale\n    return g1, g2\n",
            "    scale1 = min(1.0, max_norm / np.sqrt(np.sum(g1 ** 2)))\n"
            "    scale2 = min(1.0, max_norm / np.sqrt(np.sum(g2 ** 2)))\n    return g1 * scale1, g2 * scale2\n",
            "Clipping each array by its own norm bends the update's direction: use one factor from the global norm "
            "of both."),
    Mistake("norms added", "np.sqrt(np.sum(g1 ** 2) + np.sum(g2 ** 2))",
            "np.sqrt(np.sum(g1 ** 2)) + np.sqrt(np.sum(g2 ** 2))",
            "The global norm is the root of the sum of all squares, not the sum of the two norms."),
    Mistake("PyTorch's 1e-6 in the factor", "scale = max_norm / norm", "scale = max_norm / (norm + 1e-6)",
            "That is PyTorch's `clip_grad_norm_` factor, max_norm / (norm + 1e-6); here the factor is exactly "
            "max_norm / norm, and the 1e-6 is larger than the tests' tolerance."),
)
MAY_CHANGE_INPUTS = ("g1", "g2")  # the statement allows scaling in place


def reference(g1, g2, max_norm):
    grads = {"g1": g1.copy(), "g2": g2.copy()}
    _clip_grad_norm(grads, max_norm)
    return grads["g1"], grads["g2"]


CASES = (
    case("g1 = [2, 1], g2 = [[2, 4]] (global norm 5) with max_norm 1", g1=[2.0, 1.0], g2=[[2.0, 4.0]], max_norm=1.0),
    case("the same gradients with max_norm 10 (no clipping)", g1=[2.0, 1.0], g2=[[2.0, 4.0]], max_norm=10.0),
    random_case("random g1 (3, 4) and g2 (5,) with max_norm 2", seed=32, g1=normal(3, 4), g2=normal(5, scale=3.0),
                max_norm=2.0),
    case("a global norm exactly max_norm (5): returned unchanged", g1=[3.0, 0.0], g2=[[0.0, 4.0]], max_norm=5.0),
    case("two zero gradients (norm 0)", g1=[0.0, 0.0, 0.0], g2=[[0.0], [0.0]], max_norm=1.0),
    random_case("huge gradients (norm about 1e8), g1 (2, 3, 4) and g2 0-d, max_norm 0.5", seed=83,
                g1=normal(2, 3, 4, scale=1e7), g2=normal(scale=1e7), max_norm=0.5),
)
