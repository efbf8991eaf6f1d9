"""Exercise: mean cross-entropy straight from logits, with log-sum-exp."""
import numpy as np

from ..loss import cross_entropy_forward as _cross_entropy_forward
from ._domain import LEADING, Domain
from ._spec import Mistake, case, first_output, integers, normal, random_case

TITLE = "Cross-entropy from logits"
PAGE = "layers/cross-entropy.md"
ORDER = 1
KIND = "write"
FUNCTION = "cross_entropy"
OUTPUTS = ("loss",)
STATEMENT = """\
Write `cross_entropy(logits, targets)` returning the mean over all positions of
\\(-\\log \\mathrm{softmax}(\\text{logits})[\\text{target}]\\), as a float. `logits` is `(..., V)` and `targets`
holds integer ids of shape `(...)`. Use \\(\\log\\sum_j e^{z_j} - z_{\\text{target}}\\) with the row maximum
subtracted inside the exponential, so logits in the thousands work too, even when the target's logit is a thousand
below the others. Logits are float64 (NumPy's default); leave the inputs unchanged."""
SOLUTION = '''\
def cross_entropy(logits, targets):
    """logits: (..., V), targets: (...) ints. Return the mean loss as a float."""
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(logits, targets[..., None], axis=-1)
    return float((lse - picked).mean())
'''
HINTS = (
    "log softmax(z)_t = z_t - log(sum_j exp(z_j)): no probabilities needed.",
    "log(sum exp(z)) = m + log(sum exp(z - m)) for the row maximum m.",
    "`np.take_along_axis(logits, targets[..., None], axis=-1)` picks each position's target logit.",
)
MISTAKES = (
    Mistake("no maximum subtracted", "lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))",
            "lse = np.log(np.exp(logits).sum(axis=-1, keepdims=True))",
            "exp overflows to inf for logits above ~709: subtract each row's maximum inside the exponential and "
            "add it back outside (log-sum-exp)."),
    Mistake("sum instead of mean", "(lse - picked).mean()", "(lse - picked).sum()",
            "The loss is the *mean* over positions, so it does not grow with the batch size."),
    Mistake("probability instead of log", "return float((lse - picked).mean())",
            "return float((1.0 - np.exp(picked - lse)).mean())",
            "Cross-entropy is minus the *log* probability of the target, not one minus the probability."),
    Mistake("softmax, then log", "return float((lse - picked).mean())",
            "return float(-np.log(np.exp(picked - m) / np.exp(logits - m).sum(axis=-1, keepdims=True)).mean())",
            "Taking the log of a probability that underflowed to 0 gives inf (and adding 1e-12 caps the loss at "
            "27.6): a target a thousand below the maximum has a loss of about 1000. Stay in log space: "
            "log-sum-exp minus the target's logit."),
)


reference = first_output(_cross_entropy_forward)


CASES = (
    case("logits [[2, 1, 0], [0, 0, 0]] with targets [0, 2]", logits=[[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
         targets=np.array([0, 2])),
    random_case("random logits (2, 3, 5) with targets (2, 3)", seed=28, logits=normal(2, 3, 5),
                targets=integers(5, 2, 3)),
    random_case("logits around 1000 (4 positions, V = 6)", seed=29,
                logits=lambda rng: 1000 + rng.standard_normal((4, 6)), targets=integers(6, 4)),
    case("logits [[700, 0, -700], [0, -745, 5]] with targets [2, 1]: targets far below the maximum",
         logits=[[700.0, 0.0, -700.0], [0.0, -745.0, 5.0]], targets=np.array([2, 1])),
    random_case("one position: logits of shape (5,) and a 0-d target", seed=87, logits=normal(5, scale=3.0),
                targets=lambda rng: np.array(rng.integers(0, 5))),
    random_case("logits in the thousands, shape (2, 2, 8), with targets (2, 2)", seed=88,
                logits=normal(2, 2, 8, scale=2000.0), targets=integers(8, 2, 2)),
)


def _logits(d):
    """Logits in the thousands at times, the target's a thousand below the others at times."""
    logits = d.normal(*d.lead(), d.N, d.V, scale=(1.0, 30.0, 1e3), offset=(0.0, 1e3, -1e3))
    targets = d.integers(0, d.V, *d.lead(), d.N)
    if d.pick(False, True):
        np.put_along_axis(logits, targets[..., None], logits.min() - 1e3, axis=-1)
    return logits, targets


# The statement: logits (..., V) float, targets integer ids of shape (...).
DOMAIN = Domain(
    sizes={**LEADING, "N": range(1, 65), "V": range(2, 1025)},
    make=lambda d: dict(zip(("logits", "targets"), _logits(d))),
)
