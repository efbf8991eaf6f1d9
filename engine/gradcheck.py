"""Central-difference gradient checking: the independent referee for every hand-written backward.

``(f(x + h) - f(x - h)) / 2h`` approximates each partial derivative with an error of order h^2, needing nothing but
the forward. An analytic gradient that agrees with it to a relative error far below 1e-6 is right.
"""
import numpy as np

from .errors import LayerwiseError


def numerical_gradient(f, x, h=1e-5):
    """Gradient of the scalar ``f()`` with respect to the float array ``x``, which ``f`` reads and we nudge in place."""
    if not isinstance(x, np.ndarray) or not np.issubdtype(x.dtype, np.floating):
        raise LayerwiseError("numerical_gradient: x must be a floating-point numpy array that f reads in place")
    grad = np.zeros_like(x)
    flat_x, flat_grad = x.reshape(-1), grad.reshape(-1)  # views: nudging flat_x nudges x
    for i in range(flat_x.size):  # one probe per entry is the point of the method
        original = flat_x[i]
        flat_x[i] = original + h
        f_plus = f()
        flat_x[i] = original - h
        f_minus = f()
        flat_x[i] = original
        flat_grad[i] = (f_plus - f_minus) / (2.0 * h)
    return grad


def relative_error(a, b):
    """``|a - b| / (|a| + |b|)`` with Euclidean norms; 0 when both are exactly zero."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise LayerwiseError(f"relative_error: shapes differ, {a.shape} vs {b.shape}")
    denominator = np.linalg.norm(a) + np.linalg.norm(b)
    return 0.0 if denominator == 0 else float(np.linalg.norm(a - b) / denominator)


def check_gradients(loss_fn, arrays, analytic, h=1e-5):
    """Compare ``analytic[name]`` with the numerical gradient of ``loss_fn()`` w.r.t. ``arrays[name]``, per name."""
    return {name: relative_error(analytic[name], numerical_gradient(loss_fn, arrays[name], h)) for name in analytic}


def check_layer(forward, backward, inputs, grad_names, seed=0, h=1e-5):
    """Check a ``forward(**inputs) -> (out, cache)`` / ``backward(dout, cache) -> grads`` pair.

    The scalar tested is ``sum(out * R)`` for a fixed random R, so every output entry matters; ``backward(R, cache)``
    must return the gradients of the inputs named in ``grad_names``, in that order. Returns ``{name: rel_error}``.
    """
    inputs = {name: (np.array(value, dtype=np.float64) if name in grad_names else value)
              for name, value in inputs.items()}
    out, cache = forward(**inputs)
    R = np.random.default_rng(seed).standard_normal(np.shape(out))  # (out shape)
    grads = backward(R, cache)
    grads = grads if isinstance(grads, tuple) else (grads,)
    analytic = dict(zip(grad_names, grads))
    return check_gradients(lambda: float(np.sum(forward(**inputs)[0] * R)), inputs, analytic, h)
