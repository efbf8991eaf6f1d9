"""Inverted dropout: during training zero each entry with probability p and scale the survivors by 1 / (1 - p).

The scaling keeps every entry's expected value unchanged, so evaluation is simply the identity. The mask is drawn
from an explicit ``numpy.random.Generator`` so a run can be replayed, and the backward reuses the same mask.
"""
import numpy as np

from .errors import LayerwiseError, as_float_array, check_finite, check_probability, check_shape


def dropout_mask(shape, p, rng):
    """Boolean keep-mask of ``shape``: each entry True with probability ``1 - p``."""
    check_probability("dropout_mask", "p", p)
    if not isinstance(rng, np.random.Generator):
        raise LayerwiseError(f"dropout_mask: rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng.random(shape) >= p


def dropout_forward(x, p, mask):
    """``y = x * mask / (1 - p)`` in training; ``mask=None`` means evaluation and returns x unchanged."""
    check_probability("dropout_forward", "p", p)
    x = as_float_array("dropout_forward", "x", x)  # (...)
    check_finite("dropout_forward", "x", x)
    if mask is None:
        return x, {"mask": None, "p": p}
    mask = np.asarray(mask)
    check_shape("dropout_forward", "mask", mask, x.shape)
    if not np.isin(mask, (0, 1)).all():
        raise LayerwiseError("dropout_forward: mask must contain only 0/1 (False/True) entries")
    mask = mask.astype(bool)
    return x * mask / (1.0 - p), {"mask": mask, "p": p}


def dropout_backward(dy, cache):
    """The same mask and scale as the forward: dropped entries pass no gradient."""
    dy = as_float_array("dropout_backward", "dy", dy)
    mask = cache["mask"]
    if mask is None:
        return dy
    check_shape("dropout_backward", "dy", dy, mask.shape)
    return dy * mask / (1.0 - cache["p"])
