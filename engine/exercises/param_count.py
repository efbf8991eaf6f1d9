"""Exercise: count the parameters of the pre-LN GPT."""
from ..config import GPTConfig as _GPTConfig
from ..model import param_count as _param_count
from ._domain import Domain
from ._spec import Mistake, case, random_case

TITLE = "Counting parameters"
PAGE = "model/model.md"
ORDER = 2
KIND = "write"
FUNCTION = "gpt_param_count"
OUTPUTS = ("count",)
STATEMENT = """\
Write `gpt_param_count(V, T, d, F, L)` returning the number of parameters (an int) of this site's model with
LayerNorm in the pre-LN placement: a token table `(V, d)` and a position table `(T, d)`; per block, two LayerNorms
(gain and bias, `d` each), the four attention matrices `(d, d)` with their biases, and the MLP `(d, F)` + `(F,)` and
`(F, d)` + `(d,)`; a final LayerNorm; and the output head `(d, V)` with a bias `(V,)`. All sizes are integers from 1
up (V from 2). The count is an integer, not a float."""
SOLUTION = '''\
def gpt_param_count(V, T, d, F, L):
    """Return the number of parameters as an int."""
    embeddings = (V + T) * d
    attention = 4 * d * d + 4 * d
    mlp = d * F + F + F * d + d
    norms = 2 * (2 * d)
    head = d * V + V
    return embeddings + L * (attention + mlp + norms) + 2 * d + head
'''
HINTS = (
    "Count one block, multiply by L, then add what sits outside the blocks.",
    "Each LayerNorm has 2d parameters; there are two per block and one at the end.",
)
MISTAKES = (
    Mistake("attention biases forgotten", "attention = 4 * d * d + 4 * d", "attention = 4 * d * d",
            "4d parameters per block are missing: the four attention projections (q, k, v and the output) each have "
            "a bias of d entries, and the block's two LayerNorms hold 2d each; one of the two groups is left out."),
    Mistake("final LayerNorm forgotten", " + 2 * d + head", " + head",
            "Pre-LN adds one more LayerNorm after the last block, before the head: 2d more parameters."),
    Mistake("position table forgotten", "embeddings = (V + T) * d", "embeddings = V * d",
            "The learned position table has T rows of d entries too."),
)


def _size(low, high):
    """A size drawn from the case's generator, as a plain int."""
    return lambda rng: int(rng.integers(low, high))


def reference(V, T, d, F, L):
    return _param_count(_GPTConfig(vocab_size=V, seq_len=T, emb_dim=d, ff_dim=F, num_layers=L, num_heads=1))


CASES = (
    case("V = 5, T = 3, d = 2, F = 4, L = 1", V=5, T=3, d=2, F=4, L=1),
    case("the site's default model: V = 60, T = 16, d = 32, F = 128, L = 2", V=60, T=16, d=32, F=128, L=2),
    case("GPT-2 small's sizes: V = 50257, T = 1024, d = 768, F = 3072, L = 12", V=50257, T=1024, d=768, F=3072, L=12),
    random_case("sizes drawn at random (seeded)", seed=78, V=_size(2, 500), T=_size(1, 64), d=_size(1, 100),
                F=_size(1, 400), L=_size(1, 30)),
    random_case("other sizes drawn at random (seeded)", seed=79, V=_size(2, 500), T=_size(1, 64), d=_size(1, 100),
                F=_size(1, 400), L=_size(1, 30)),
)

# The statement: all sizes integers from 1 up (V from 2), GPT-2's and larger.
DOMAIN = Domain(sizes={"V": range(2, 100_001), "T": range(1, 4097), "d": range(1, 4097), "F": range(1, 16_385),
                       "L": range(1, 97)},
                make=lambda d: {"V": d.V, "T": d.T, "d": d.d, "F": d.F, "L": d.L}, budget=1 << 62)
