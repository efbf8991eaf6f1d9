"""Exercise: one AdamW step on a dict of parameters, with bias correction and decay on matrices only."""
import numpy as np

from ..optim import adamw_step as _adamw_step
from ._domain import Domain
from ._spec import Mistake, case, normal, random_case

TITLE = "One AdamW step"
PAGE = "model/training.md"
ORDER = 3
KIND = "write"
FUNCTION = "adamw_step"
OUTPUTS = ("params", "m", "v")
STATEMENT = """\
Write `adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8)`: one AdamW update
of every parameter. `params`, `grads`, `m` and `v` are dicts with the same keys (`"b0.wq"`, `"head_b"`, ...),
each value a float64 array with one or two axes; `m` and `v` are the running averages after step `t - 1` (zeros
before the first step) and `t` is the number of this step, counting from 1. For every key: update
\\(m \\leftarrow \\beta_1 m + (1 - \\beta_1) g\\) and \\(v \\leftarrow \\beta_2 v + (1 - \\beta_2) g^2\\), correct
them for their zero start, \\(\\hat m = m / (1 - \\beta_1^t)\\) and \\(\\hat v = v / (1 - \\beta_2^t)\\), then step
\\(\\theta \\leftarrow \\theta - \\eta\\,(\\hat m / (\\sqrt{\\hat v} + \\epsilon) + \\lambda \\theta)\\) with the
weight before this step in the decay term, where \\(\\lambda\\) is `weight_decay` for arrays with two axes and 0 for
arrays with one (biases, LayerNorm's gains and shifts). Return `(params, m, v)` after the step: new dicts, or the
given ones updated in place (an optimiser usually does that); leave `grads` unchanged."""
SOLUTION = '''\
def adamw_step(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    """params, grads, m, v: dicts of float64 arrays (one or two axes) with the same keys; t: this step's number,
    from 1. Return (params, m, v) after one AdamW step."""
    new_params, new_m, new_v = {}, {}, {}
    for name, p in params.items():
        decay = weight_decay if p.ndim == 2 else 0.0
        g = grads[name]
        new_m[name] = beta1 * m[name] + (1.0 - beta1) * g
        new_v[name] = beta2 * v[name] + (1.0 - beta2) * g * g
        m_hat = new_m[name] / (1.0 - beta1 ** t)
        v_hat = new_v[name] / (1.0 - beta2 ** t)
        new_params[name] = p - lr * decay * p - lr * m_hat / (np.sqrt(v_hat) + eps)
    return new_params, new_m, new_v
'''
HINTS = (
    "Loop over the keys of `params`; each parameter has its own `m` and `v`, and nothing mixes between keys.",
    "At t = 1 the corrections divide by exactly 1 - beta1 and 1 - beta2, so the first step moves every entry with a "
    "nonzero gradient by about lr: a quick check of your code.",
    "`p.ndim == 2` tells a matrix from a bias or a norm's gain; only matrices get `lr * weight_decay * p` "
    "subtracted, computed from the weight before the Adam part moves it.",
)
MISTAKES = (
    Mistake("weight decay on every parameter", "decay = weight_decay if p.ndim == 2 else 0.0",
            "decay = weight_decay",
            "Weight decay is only for arrays with two axes: biases and LayerNorm's gains and shifts get the Adam "
            "step alone (shrinking a gain toward 0 regularises nothing useful)."),
    Mistake("no bias correction", "m_hat = new_m[name] / (1.0 - beta1 ** t)\n        v_hat = new_v[name] / (1.0 - beta2 ** t)",
            "m_hat = new_m[name]\n        v_hat = new_v[name]",
            "m and v start at zero, so early on they are too small: divide them by 1 - beta1**t and 1 - beta2**t "
            "before the step."),
    Mistake("decay through the gradient (Adam with L2)", "        g = grads[name]\n",
            "        g = grads[name] + decay * p\n        decay = 0.0\n",
            "Adding weight_decay * p to the gradient is Adam with L2: Adam's division then rescales the decay. "
            "AdamW's decay is decoupled: subtract lr * weight_decay * p from the weight itself."),
    Mistake("eps inside the square root", "np.sqrt(v_hat) + eps", "np.sqrt(v_hat + eps)",
            "eps is added after the square root, sqrt(v_hat) + eps: inside it, it changes every step whose "
            "gradients are small."),
    Mistake("decay of the updated weight", "p - lr * decay * p - lr * m_hat / (np.sqrt(v_hat) + eps)",
            "(p - lr * m_hat / (np.sqrt(v_hat) + eps)) * (1.0 - lr * decay)",
            "The decay term uses the weight before this step, theta - lr * (m_hat / (sqrt(v_hat) + eps) + "
            "weight_decay * theta), not the weight the Adam part has already moved."),
)
MAY_CHANGE_INPUTS = ("params", "m", "v")  # the statement allows an in-place update


def reference(params, grads, m, v, t, lr, weight_decay, beta1=0.9, beta2=0.95, eps=1e-8):
    params = {name: p.copy() for name, p in params.items()}
    state = {"m": {name: a.copy() for name, a in m.items()}, "v": {name: a.copy() for name, a in v.items()},
             "step": t - 1}
    _adamw_step(params, grads, state, lr, (beta1, beta2), eps, weight_decay)
    return params, state["m"], state["v"]


def _squares(*shape, scale=1.0):
    """A second moment: a running mean of squared gradients of about ``scale``, so never negative."""
    return lambda rng: scale ** 2 * np.abs(rng.standard_normal(shape))


_MODEL_LIKE = {"tok_emb": (6, 4), "b0.ln1_g": (4,), "b0.wq": (4, 4), "b0.bq": (4,), "head_b": (6,)}


def _model_like(t, scale=1.0, **settings):
    """Parameters named and shaped like the model's (matrices, biases, a gain), moments carried from earlier steps,
    gradients of about ``scale``."""
    return {"params": {name: normal(*shape) for name, shape in _MODEL_LIKE.items()},
            "grads": {name: normal(*shape, scale=scale) for name, shape in _MODEL_LIKE.items()},
            "m": {name: normal(*shape, scale=0.1 * scale) for name, shape in _MODEL_LIKE.items()},
            "v": {name: _squares(*shape, scale=scale) for name, shape in _MODEL_LIKE.items()},
            "t": t, **settings}


CASES = (
    case("the first step (t = 1) of a 1×2 weight and a bias, lr 0.01, weight_decay 0.1",
         params={"w": [[1.0, -2.0]], "b": [0.5]}, grads={"w": [[0.1, -0.3]], "b": [0.2]},
         m={"w": [[0.0, 0.0]], "b": [0.0]}, v={"w": [[0.0, 0.0]], "b": [0.0]}, t=1, lr=0.01, weight_decay=0.1),
    random_case("step t = 3 of parameters like the model's (matrices, biases, a LayerNorm gain)", seed=301,
                **_model_like(3, lr=3e-3, weight_decay=0.1)),
    random_case("step t = 1000, where the corrections are almost 1", seed=302,
                **_model_like(1000, lr=1e-3, weight_decay=0.1)),
    random_case("Adam's usual beta2 = 0.999 at t = 5, with beta1 = 0.8 and eps = 1e-6", seed=303,
                **_model_like(5, lr=1e-2, weight_decay=0.05, beta1=0.8, beta2=0.999, eps=1e-6)),
    random_case("tiny gradients (about 1e-5), where eps is not negligible", seed=304,
                **_model_like(2, scale=1e-5, lr=1e-3, weight_decay=0.1)),
    random_case("weight_decay = 0: plain Adam", seed=305, **_model_like(7, lr=1e-2, weight_decay=0.0)),
    case("a zero gradient at the first step: only the decay moves the matrix",
         params={"w": [[2.0, -4.0], [1.0, 0.0]], "b": [3.0, -1.0]}, grads={"w": [[0.0, 0.0], [0.0, 0.0]],
                                                                         "b": [0.0, 0.0]},
         m={"w": [[0.0, 0.0], [0.0, 0.0]], "b": [0.0, 0.0]}, v={"w": [[0.0, 0.0], [0.0, 0.0]], "b": [0.0, 0.0]},
         t=1, lr=0.1, weight_decay=0.5),
)


def _drawn_parameters(d):
    """``d.n`` parameters alternating a matrix (rows, cols) and a vector (cols), with gradients, moments and settings
    drawn over what the statement allows: any step t >= 1, tiny to large gradients, every setting off its default."""
    shapes = {(f"w{i}" if i % 2 == 0 else f"b{i}"): ((d.rows, d.cols) if i % 2 == 0 else (d.cols,))
              for i in range(d.n)}
    scale = d.pick(1e-6, 1.0, 1e3)
    return {"params": {name: d.normal(*shape, scale=(1.0, 1e2)) for name, shape in shapes.items()},
            "grads": {name: d.normal(*shape, scale=scale) for name, shape in shapes.items()},
            "m": {name: d.normal(*shape, scale=0.1 * scale) for name, shape in shapes.items()},
            "v": {name: np.abs(d.normal(*shape, scale=scale ** 2)) for name, shape in shapes.items()},
            "t": d.pick(1, 2, 10, 1000, 10_000), "lr": d.pick(1e-4, 3e-3, 0.1), "weight_decay": d.pick(0.0, 0.1, 0.5),
            "beta1": d.pick(0.9, 0.8, 0.0), "beta2": d.pick(0.95, 0.999, 0.5), "eps": d.pick(1e-8, 1e-6, 1e-3)}


# The statement: dicts of arrays with one or two axes (any sizes, up to GPT-2's 768 wide), any step t >= 1, every
# setting a parameter.
DOMAIN = Domain(sizes={"n": range(1, 7), "rows": range(1, 65), "cols": range(1, 769)}, make=_drawn_parameters)
