"""The feed-forward sublayer and the parameter count."""
from engine import exercises

from . import Correct, Wrong

PARAM_COUNT = exercises.get("param-count")
ONE_TOKEN = "one token with d = 2, F = 3"
SMALL = "V = 5, T = 3, d = 2, F = 4, L = 1"

PROGRAMS = [
    Correct("mlp-forward", "picoGPT's ffn", '''
# after picoGPT's gpt2.py: ffn(x, c_fc, c_proj) = linear(gelu(linear(x, **c_fc)), **c_proj)
def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))

def linear(x, w, b):
    return x @ w + b

def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    return linear(gelu(linear(x, ff1_w, ff1_b)), ff2_w, ff2_b)
'''),
    Correct("mlp-forward", "einsum for both layers", '''
def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    h = np.einsum("...d,df->...f", x, ff1_w) + ff1_b
    a = h * 0.5 * (1.0 + np.tanh(0.7978845608028654 * (h + 0.044715 * h ** 3)))
    return np.einsum("...f,fd->...d", a, ff2_w) + ff2_b
'''),
    Correct("mlp-forward", "rows flattened and put back", '''
def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    rows = x.reshape(-1, x.shape[-1])
    h = rows @ ff1_w + ff1_b
    a = h / (1.0 + np.exp(-2.0 * np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))
    return (a @ ff2_w + ff2_b).reshape(x.shape)
'''),
    Wrong("mlp-forward", "the exact erf GELU", '''
import math

def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    h = x @ ff1_w + ff1_b
    a = 0.5 * h * (1.0 + np.vectorize(math.erf)(h / math.sqrt(2.0)))
    return a @ ff2_w + ff2_b
''', f"On {ONE_TOKEN}, `y` is wrong in 2 of 2 entries."),  # h = (0.5, -0.5, -1.5): the two GELUs differ at each
    Wrong("mlp-forward", "ff2's bias forgotten", '''
def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    h = x @ ff1_w + ff1_b
    return 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3))) @ ff2_w
''', f"On {ONE_TOKEN}, `y` is wrong in 2 of 2 entries."),  # ff2_b = (0.1, -0.1)
    Wrong("mlp-forward", "ff1's weights transposed", '''
def mlp_forward(x, ff1_w, ff1_b, ff2_w, ff2_b):
    h = x @ ff1_w.T + ff1_b
    a = 0.5 * h * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (h + 0.044715 * h ** 3)))
    return a @ ff2_w + ff2_b
''', f"`mlp_forward` raised ValueError on {ONE_TOKEN}."),

    Correct("param-count", "every tensor's shape listed", '''
def gpt_param_count(V, T, d, F, L):
    shapes = [(V, d), (T, d), (d,), (d,), (d, V), (V,)]
    for _ in range(L):
        shapes += [(d,)] * 4 + [(d, d), (d,)] * 4 + [(d, F), (F,), (F, d), (d,)]
    return sum(int(np.prod(shape)) for shape in shapes)
'''),
    Correct("param-count", "one expanded formula", '''
def gpt_param_count(V, T, d, F, L):
    return V * d + T * d + L * (4 * d * d + 4 * d + 2 * d * F + F + d + 4 * d) + 2 * d + d * V + V
'''),
    Correct("param-count", "numpy integers summed per block", '''
def gpt_param_count(V, T, d, F, L):
    block = np.sum([4 * (d * d + d), d * F + F, F * d + d, 4 * d])
    return int(np.int64(V + T) * d + L * block + 2 * d + (d + 1) * V)
'''),
    Wrong("param-count", "the head tied to the token table, its bias kept", '''
def gpt_param_count(V, T, d, F, L):
    block = 4 * d * d + 4 * d + d * F + F + F * d + d + 4 * d
    return (V + T) * d + L * block + 2 * d + V
''', f"On {SMALL}, `count` is 79 but should be 89."),
    # by hand: tables (5 + 3) * 2 = 16, a block 24 + 22 + 8 = 54, the final norm 4, the head 2 * 5 + 5 = 15
    Wrong("param-count", "the blocks' two LayerNorms forgotten", '''
def gpt_param_count(V, T, d, F, L):
    block = 4 * d * d + 4 * d + d * F + F + F * d + d
    return (V + T) * d + L * block + 2 * d + d * V + V
''', f"On {SMALL}, `count` is 81 but should be 89.", PARAM_COUNT.MISTAKES[0].hint),
    # 4d per block short, as with the attention biases forgotten (the hint names both); the final norm would be 2d
    Wrong("param-count", "a float", '''
def gpt_param_count(V, T, d, F, L):
    block = 4 * d * d + 4 * d + d * F + F + F * d + d + 4 * d
    return float((V + T) * d + L * block + 2 * d + d * V + V)
''', f"On {SMALL}, `count` has dtype float64 but should have dtype int64."),
    Wrong("param-count", "answers written out for the sizes seen", '''
def gpt_param_count(V, T, d, F, L):
    return {(5, 1): 89, (60, 2): 29884, (50257, 12): 163087441}[(V, L)]
''', "`gpt_param_count` raised KeyError on sizes drawn at random (seeded)."),
    # by hand, the site's model: 76 * 32 + 2 * 12704 + 64 + 1980; GPT-2 small's sizes with an untied head and biases:
    # 51281 * 768 + 12 * 7087872 + 1536 + 769 * 50257
]
