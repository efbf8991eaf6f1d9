"""Exercise: dropout in training and in evaluation mode."""
import numpy as np

from ..dropout import dropout_forward as _dropout_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, normal, random_case

TITLE = "Dropout: training and evaluation"
PAGE = "layers/dropout.md"
ORDER = 2
KIND = "write"
FUNCTION = "dropout"
OUTPUTS = ("y",)
STATEMENT = """\
Write `dropout(x, p, mask, training)`. In training (`training` is `True`) it is inverted dropout: keep the entries
where `mask` is `True` and divide them by `1 - p`, zero the others. In evaluation (`training` is `False`) nothing is
dropped and nothing is scaled, whatever `mask` holds. Arrays are float64 (NumPy's default); leave the inputs
unchanged."""
SOLUTION = '''\
def dropout(x, p, mask, training):
    """x: any shape, p in [0, 1), mask: bool like x (True = keep), training: bool. Return y."""
    if not training:
        return x
    return x * mask / (1.0 - p)
'''
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
    random_case("training with p = 0.5 on a random (2, 3, 4) input", seed=70, x=normal(2, 3, 4), p=0.5,
                mask=lambda rng: rng.random((2, 3, 4)) >= 0.5, training=True),
    random_case("training with p = 0.9", seed=71, x=normal(4, 5), p=0.9, mask=lambda rng: rng.random((4, 5)) >= 0.9,
                training=True),
    random_case("training with p = 0: the mask is all True", seed=72, x=normal(3, 3), p=0.0,
                mask=lambda rng: np.ones((3, 3), dtype=bool), training=True),
    random_case("evaluation with p = 0.3 on a random (3, 4) input and a random mask", seed=73, x=normal(3, 4), p=0.3,
                mask=lambda rng: rng.random((3, 4)) >= 0.3, training=False),
)


def _dropout(d):
    """Any shape, any p in [0, 1), a mask kept with probability 1 - p, training on or off."""
    x = d.normal(*d.lead(), d.rows, d.n)
    p = d.pick(0.0, 0.1, 0.5, 0.9)
    return x, p, d.uniform(0.0, 1.0, *x.shape) >= p, d.pick(True, False)


DOMAIN = Domain(sizes={**LEADING, "rows": range(1, 65), "n": range(1, 769)},
                make=lambda d: dict(zip(("x", "p", "mask", "training"), _dropout(d))))
