"""Inverted dropout, its two modes, and its backward."""
from . import Correct, Wrong, changed, given

FORWARD = given("dropout-backward")
FORWARD_CASE = "a 2×4 input with p = 0.25"
BACKWARD_CASE = "a 2×3 input with p = 0.25"
EVALUATION = "evaluation (training = False) with p = 0.5"
TRAINING = "training with p = 0.2"

PROGRAMS = [
    Correct("dropout-forward", "np.where", '''
def dropout_forward(x, p, mask):
    return np.where(mask, x / (1.0 - p), 0.0)
'''),
    Correct("dropout-forward", "a scaled mask, after CS231n's dropout_forward", '''
# after CS231n's layers.py dropout_forward, whose p is the keep probability: mask = (rand < p) / p
def dropout_forward(x, p, mask):
    keep = 1.0 - p
    return x * (mask / keep)
'''),
    Correct("dropout-forward", "the mask as floats times a factor", '''
def dropout_forward(x, p, mask):
    return x * mask.astype(x.dtype) * (1.0 / (1.0 - p))
'''),
    Wrong("dropout-forward", "kept entries shrunk instead", '''
def dropout_forward(x, p, mask):
    return x * mask * (1.0 - p)
''', f"On {FORWARD_CASE}, `y` is wrong in 5 of 8 entries."),  # 5 kept entries; the 3 dropped are 0 either way
    Wrong("dropout-forward", "only the kept entries returned", '''
def dropout_forward(x, p, mask):
    return x[mask] / (1.0 - p)
''', f"On {FORWARD_CASE}, `y` has shape (5,) but should have shape (2, 4)."),
    Wrong("dropout-forward", "x scaled in place", '''
def dropout_forward(x, p, mask):
    x *= mask
    x /= 1.0 - p
    return x
''', changed(FORWARD_CASE, "dropout_forward", "x")),

    Correct("dropout-modes", "a conditional expression, a copy in evaluation", '''
def dropout(x, p, mask, training):
    return x * mask / (1.0 - p) if training else x.copy()
'''),
    Correct("dropout-modes", "np.where in training", '''
def dropout(x, p, mask, training):
    if training:
        return np.where(mask, x / (1.0 - p), 0.0)
    return x
'''),
    Correct("dropout-modes", "one factor for both modes", '''
def dropout(x, p, mask, training):
    factor = mask / (1.0 - p) if training else 1.0
    return np.asarray(x) * factor
'''),
    Wrong("dropout-modes", "training's rule in both modes", '''
def dropout(x, p, mask, training):
    return x * mask / (1.0 - p)
''', f"On {EVALUATION}, `y` is wrong in 6 of 6 entries."),  # kept entries doubled, dropped ones zeroed
    Wrong("dropout-modes", "training divides by p", '''
def dropout(x, p, mask, training):
    if not training:
        return x
    return x * mask / p
''', f"On {TRAINING}, `y` is wrong in 4 of 6 entries."),  # the 4 kept entries
    Wrong("dropout-modes", "training zeroes x in place", '''
def dropout(x, p, mask, training):
    if training:
        x[~mask] = 0.0
        x /= 1.0 - p
    return x
''', changed(TRAINING, "dropout", "x")),

    Correct("dropout-backward", "np.where", FORWARD + '''
def dropout_backward(dy, x, p, mask):
    return np.where(mask, dy / (1.0 - p), 0.0)
'''),
    Correct("dropout-backward", "dy times the scaled mask", FORWARD + '''
def dropout_backward(dy, x, p, mask):
    return dy * (mask / (1.0 - p))
'''),
    Correct("dropout-backward", "the factor computed once", FORWARD + '''
def dropout_backward(dy, x, p, mask):
    scale = 1.0 / (1.0 - p)
    return dy * mask * scale
'''),
    Wrong("dropout-backward", "x where dy belongs", FORWARD + '''
def dropout_backward(dy, x, p, mask):
    return x * mask / (1.0 - p)
''', f"On {BACKWARD_CASE}, `dx` is wrong in 3 of 6 entries."),  # 4 kept, but dy = x = 0.5 at [1, 1]
    Wrong("dropout-backward", "kept gradients shrunk", FORWARD + '''
def dropout_backward(dy, x, p, mask):
    return dy * mask * (1.0 - p)
''', f"On {BACKWARD_CASE}, `dx` is wrong in 4 of 6 entries."),
    Wrong("dropout-backward", "only the kept gradients returned", FORWARD + '''
def dropout_backward(dy, x, p, mask):
    return dy[mask] / (1.0 - p)
''', f"On {BACKWARD_CASE}, `dx` has shape (4,) but should have shape (2, 3)."),
]
