"""Exercise: dropout in training and in evaluation mode."""
import numpy as np

from ..dropout import dropout_forward as _dropout_forward
from ._spec import Mistake, case, starter

TITLE = "Dropout: training and evaluation"
PAGE = "layers/dropout.md"
ORDER = 2
KIND = "write"
FUNCTION = "dropout"
OUTPUTS = ("y",)
STATEMENT = """\
Write `dropout(x, p, mask, training)`. In training (`training` is `True`) it is inverted dropout: keep the entries
where `mask` is `True` and divide them by `1 - p`, zero the others. In evaluation (`training` is `False`) nothing is
dropped and nothing is scaled, whatever `mask` holds."""
SOLUTION = '''\
def dropout(x, p, mask, training):
    """x: any shape, p in [0, 1), mask: bool like x (True = keep), training: bool. Return y."""
    if not training:
        return x
    return x * mask / (1.0 - p)
'''
STARTER = starter(SOLUTION, FUNCTION)
HINTS = (
    "Look at `training` first.",
    "Because training already divided by 1 - p, evaluation is simply the identity.",
)
MISTAKES = (
    Mistake("scaled at evaluation", "        return x\n", "        return x * (1.0 - p)\n",
            "That is the evaluation rule of the old, non-inverted dropout. With inverted dropout the training pass "
            "already divided by 1 - p, so evaluation returns x unchanged."),
    Mistake("mask used at evaluation", "        return x\n", "        return x * mask\n",
            "In evaluation nothing is dropped: ignore the mask and return x unchanged."),
    Mistake("missing 1/(1-p) in training", "x * mask / (1.0 - p)", "x * mask",
            "In training, divide the kept entries by 1 - p so their expected value stays x."),
)


def reference(x, p, mask, training):
    return _dropout_forward(x, p, mask if training else None)[0]


_MASK = np.array([[True, False, True], [True, True, False]])
CASES = (
    case("evaluation (training = False) with p = 0.5", x=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], p=0.5, mask=_MASK,
         training=False),
    case("training with p = 0.2", x=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], p=0.2, mask=_MASK, training=True),
)
