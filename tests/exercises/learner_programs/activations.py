"""ReLU backward, GELU and its backward."""
from engine import exercises

from . import Correct, Wrong, given

RELU_BACKWARD = exercises.get("relu-backward")
RELU = given("relu-backward")
GELU = given("gelu-backward")
NO_ZEROS = "a 2×3 input without zeros"
WITH_ZEROS = "a 1×4 input with x = 0 in it"
FIVE = "the values -2, -1, 0, 1, 2"
FIVE_DY = "the values -2, -1, 0, 1, 2 with dy = 1"

PROGRAMS = [
    Correct("relu-backward", "np.where", RELU + '''
def relu_backward(dy, x):
    return np.where(x > 0, dy, 0.0)
'''),
    Correct("relu-backward", "the mask from the forward's output, as micrograd does", RELU + '''
# after micrograd's engine.py: self.grad += (out.data > 0) * out.grad
def relu_backward(dy, x):
    out = relu_forward(x)
    return (out > 0) * dy
'''),
    Correct("relu-backward", "np.heaviside with 0 at 0", RELU + '''
def relu_backward(dy, x):
    return dy * np.heaviside(x, 0.0)
'''),
    Wrong("relu-backward", "x >= 0 written with np.where", RELU + '''
def relu_backward(dy, x):
    return np.where(x >= 0, dy, 0.0)
''', f"On {WITH_ZEROS}, `dx` is wrong in 2 of 4 entries.", RELU_BACKWARD.MISTAKES[0].hint),
    Wrong("relu-backward", "float32", RELU + '''
def relu_backward(dy, x):
    return np.where(x > 0, dy, 0.0).astype(np.float32)
''', f"On {NO_ZEROS}, `dx` has dtype float32 but should have dtype float64."),
    Wrong("relu-backward", "negative upstream gradients dropped too", RELU + '''
def relu_backward(dy, x):
    return np.maximum(dy, 0.0) * (x > 0)
''', f"On {NO_ZEROS}, `dx` is wrong in 2 of 6 entries."),  # dy = -2 at x = 2 and dy = -1 at x = 4

    Correct("gelu-forward", "picoGPT's gelu", '''
# from picoGPT's gpt2.py
def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
'''),
    Correct("gelu-forward", "x times a sigmoid of 2u", '''
import math

def gelu(x):
    u = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
    return x / (1.0 + np.exp(-2.0 * u))     # 0.5 (1 + tanh u) = sigmoid(2u)
'''),
    Correct("gelu-forward", "Horner form of the inner polynomial", '''
C = (2.0 / np.pi) ** 0.5

def gelu(x):
    u = C * x * (1.0 + 0.044715 * x * x)
    return np.multiply(0.5 * x, 1.0 + np.tanh(u))
'''),
    Wrong("gelu-forward", "the exact erf GELU", '''
import math

def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
''', f"On {FIVE}, `y` is wrong in 4 of 5 entries."),  # both are 0 at x = 0 only
    Wrong("gelu-forward", "the sigmoid approximation x * sigmoid(1.702 x)", '''
def gelu(x):
    return x / (1.0 + np.exp(-1.702 * x))
''', f"On {FIVE}, `y` is wrong in 4 of 5 entries."),
    Wrong("gelu-forward", "math.tanh on an array", '''
import math

def gelu(x):
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
''', f"`gelu` raised TypeError on {FIVE}."),

    Correct("gelu-backward", "sech squared from cosh", GELU + '''
def gelu_backward(dy, x):
    c = np.sqrt(2.0 / np.pi)
    u = c * (x + 0.044715 * x ** 3)
    sech2 = 1.0 / np.cosh(u) ** 2
    return dy * (0.5 * (1.0 + np.tanh(u)) + 0.5 * x * sech2 * c * (1.0 + 0.134145 * x ** 2))
'''),
    Correct("gelu-backward", "the sigmoid form, s + x s (1 - s) 2u'", GELU + '''
def gelu_backward(dy, x):
    c = np.sqrt(2.0 / np.pi)
    u = c * (x + 0.044715 * x ** 3)
    s = 1.0 / (1.0 + np.exp(-2.0 * u))
    return dy * (s + x * s * (1.0 - s) * 2.0 * c * (1.0 + 3 * 0.044715 * x ** 2))
'''),
    Correct("gelu-backward", "small helper functions for each factor", GELU + '''
def _u(x):
    return np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)

def _du(x):
    return np.sqrt(2.0 / np.pi) * (1.0 + 3 * 0.044715 * x ** 2)

def gelu_backward(dy, x):
    t = np.tanh(_u(x))
    local = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * _du(x)
    return local * dy
'''),
    Wrong("gelu-backward", "the derivative of the exact erf GELU", GELU + '''
import math

def gelu_backward(dy, x):
    erf = np.vectorize(math.erf)
    cdf = 0.5 * (1.0 + erf(x / math.sqrt(2.0)))
    pdf = np.exp(-0.5 * x ** 2) / math.sqrt(2.0 * math.pi)
    return dy * (cdf + x * pdf)
''', f"On {FIVE_DY}, `dx` is wrong in 4 of 5 entries."),
    Wrong("gelu-backward", "du/dx taken as sqrt(2/pi)", GELU + '''
def gelu_backward(dy, x):
    t = np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3))
    return dy * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t ** 2) * np.sqrt(2.0 / np.pi))
''', f"On {FIVE_DY}, `dx` is wrong in 4 of 5 entries."),
    Wrong("gelu-backward", "dy forgotten: right only where dy = 1", GELU + '''
def gelu_backward(dy, x):
    t = np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3))
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t ** 2) * np.sqrt(2.0 / np.pi) * (1.0 + 3 * 0.044715 * x ** 2)
''', "On a random (2, 3, 5) input, scale 2, `dx` is wrong in 30 of 30 entries."),
]
