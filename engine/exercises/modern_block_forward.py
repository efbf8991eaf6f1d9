"""Exercise: the parameters of a modern attention layer."""
from ..config import GPTConfig as _GPTConfig
from ..model import param_count_by_part as _param_count_by_part
from ._spec import Mistake, case

TITLE = "Attention parameters with shared key/value heads"
PAGE = "model/modern_block.md"
ORDER = 1
KIND = "write"
FUNCTION = "attention_params"
OUTPUTS = ("count",)
STATEMENT = """\
Write `attention_params(d, num_heads, kv_heads)` returning `count`, the number of parameters of one attention layer
of width `d` with `num_heads` query heads of size `d // num_heads` and `kv_heads` key/value heads: the query and
output projections are `d × d` with a bias of `d` each; the key and value projections are `d × (kv_heads · hs)`
with a bias of `kv_heads · hs` each. Return an integer."""
SOLUTION = '''\
def attention_params(d, num_heads, kv_heads):
    """Parameters of one attention layer with grouped key/value heads."""
    kv = kv_heads * (d // num_heads)
    return 2 * (d * d + d) + 2 * (d * kv + kv)
'''
HINTS = (
    "Count the four projections separately: each is a matrix plus a bias.",
    "Only the key and value projections shrink: their output width is kv_heads · hs, not d.",
)
MISTAKES = (
    Mistake("every projection full width", "kv = kv_heads * (d // num_heads)", "kv = d",
            "With shared heads the key and value projections are only kv_heads · hs wide."),
    Mistake("biases forgotten", "return 2 * (d * d + d) + 2 * (d * kv + kv)", "return 2 * d * d + 2 * d * kv",
            "Each of the four projections also has a bias vector as wide as its output."),
)


def reference(d, num_heads, kv_heads):
    config = _GPTConfig(vocab_size=1, emb_dim=d, num_heads=num_heads, kv_heads=kv_heads, num_layers=1)
    return _param_count_by_part(config)["attention"]


CASES = (
    case("multi-query: d 24, 2 heads, 1 key/value head", d=24, num_heads=2, kv_heads=1),
    case("GPT-2 small's width, 12 heads, multi-head", d=768, num_heads=12, kv_heads=12),
    case("a Llama-3-8B-like layer: d 4096, 32 query heads, 8 key/value heads", d=4096, num_heads=32, kv_heads=8),
)
