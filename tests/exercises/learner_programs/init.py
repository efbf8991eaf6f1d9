"""GPT-2's initial standard deviations and drawing its weights."""
from engine import exercises

from . import Correct, Wrong

GPT2_STD = exercises.get("gpt2-std")
FIRST = "shape (3, 4), L = 2, a residual-writing projection, default_rng(0)"

PROGRAMS = [
    Correct("gpt2-std", "nanoGPT's c_proj rule", '''
import math

# after nanoGPT's model.py: std=0.02, and 0.02/math.sqrt(2 * config.n_layer) for the c_proj weights
def gpt2_std(num_layers, residual):
    return 0.02 / math.sqrt(2 * num_layers) if residual else 0.02
'''),
    Correct("gpt2-std", "a power of -1/2", '''
def gpt2_std(num_layers, residual):
    return 0.02 * (2 * num_layers) ** -0.5 if residual else 0.02
'''),
    Correct("gpt2-std", "from the variance budget", '''
def gpt2_std(num_layers, residual):
    variance = 0.02 ** 2
    if residual:
        variance /= 2 * num_layers      # 2L branch outputs share the stream's variance
    return float(np.sqrt(variance))
'''),
    Wrong("gpt2-std", "every matrix scaled, written as one expression", '''
def gpt2_std(num_layers, residual):
    return 0.02 * (2 * num_layers) ** -0.5
''', "On L = 12, a matrix that is not residual-writing, `std` is 0.0041 but should be 0.0200.",
          GPT2_STD.MISTAKES[2].hint),
    Wrong("gpt2-std", "answers written out for the L seen", '''
def gpt2_std(num_layers, residual):
    if not residual:
        return 0.02
    return {2: 0.01, 12: 0.02 / 24 ** 0.5}[num_layers]
''', "`gpt2_std` raised KeyError on L = 1, a residual-writing projection."),
    Wrong("gpt2-std", "halved once per layer", '''
def gpt2_std(num_layers, residual):
    return 0.02 / np.sqrt(2) ** num_layers if residual else 0.02
''', "On L = 12, a residual-writing projection, `std` is 0.0003 but should be 0.0041."),  # 0.02 / 64 and 0.02 / 24^0.5

    Correct("gpt2-init", "std times standard normal draws", '''
def gpt2_init(shape, rng, num_layers, residual):
    std = 0.02 / np.sqrt(2 * num_layers) if residual else 0.02
    return std * rng.standard_normal(shape)
'''),
    Correct("gpt2-init", "keywords, as nanoGPT's normal_(mean=0.0, std=0.02)", '''
# after nanoGPT's model.py _init_weights: torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
import math

def gpt2_init(shape, rng, num_layers, residual):
    std = 0.02 / math.sqrt(2 * num_layers) if residual else 0.02
    return rng.normal(loc=0.0, scale=std, size=shape)
'''),
    Correct("gpt2-init", "unit draws scaled afterwards", '''
def gpt2_init(shape, rng, num_layers, residual):
    W = rng.normal(size=shape)
    W *= 0.02 / (2 * num_layers) ** 0.5 if residual else 0.02
    return W
'''),
    Wrong("gpt2-init", "a fresh generator seeded 0", '''
def gpt2_init(shape, rng, num_layers, residual):
    std = 0.02 / np.sqrt(2 * num_layers) if residual else 0.02
    return np.random.default_rng(0).normal(0.0, std, size=shape)
''', "On shape (5, 2), L = 6, not residual-writing, default_rng(1), `W` is wrong in 10 of 10 entries."),
    Wrong("gpt2-init", "drawn as the transposed shape", '''
def gpt2_init(shape, rng, num_layers, residual):
    std = 0.02 / np.sqrt(2 * num_layers) if residual else 0.02
    return rng.normal(0.0, std, size=shape[::-1]).T
''', f"On {FIRST}, `W` is wrong in 10 of 12 entries."),  # W[0, 0] and W[2, 3] are draws 0 and 11 either way
    Wrong("gpt2-init", "residual scaled by 1/sqrt(L)", '''
def gpt2_init(shape, rng, num_layers, residual):
    std = 0.02 / np.sqrt(num_layers) if residual else 0.02
    return rng.normal(0.0, std, size=shape)
''', f"On {FIRST}, `W` is wrong in 12 of 12 entries."),
]
