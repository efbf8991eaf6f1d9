"""The model page: every number it prints, against a parameter count made by hand and the engine's own arrays."""
import math


from engine import config, data, model
from engine.examples import KINDS

from page_values import REPO, page_text, shown_texts

PAGE = page_text("model/model.md")

SHOWN = shown_texts("model/model.md")

V = len(set(data.load_corpus()))  # distinct characters, counted without the engine's build_vocab
d, T, F, L, H = 32, 16, 128, 2, 4  # the defaults the page's configuration table shows


def by_hand(V, T, d, F, L, norm=2, final=True):
    """Embeddings, L blocks (attention, feed-forward, two norms of `norm * d`), final norm, head with bias."""
    attention = 4 * d * d + 4 * d
    feed_forward = d * F + F + F * d + d
    return (V + T) * d + L * (attention + feed_forward + 2 * norm * d) + (norm * d if final else 0) + d * V + V


def test_configuration_table():
    assert SHOWN[:12] == [str(T), str(d), str(H), str(d // H), str(F), str(L),
                          "layernorm", "gelu", "pre", "gpt2", "0.0", "float64"]
    assert config.GPTConfig().to_dict() == dict(vocab_size=None, seq_len=T, emb_dim=d, num_heads=H, ff_dim=F,
                                                num_layers=L, norm="layernorm", activation="gelu", placement="pre",
                                                init="gpt2", dropout=0.0, dtype="float64",
                                                # the modern switches, at GPT-2's choices (their own page)
                                                positions="learned", rope_base=10000.0, ffn="mlp", kv_heads=None,
                                                tokenizer="char")


def test_parameter_table_shapes_and_sizes():
    assert SHOWN[12:14] == [str(V), str(V)]
    table = SHOWN[14:50]
    expected = [(V, d), (T, d), (d,), (d,), (d, d), (d,), (d, d), (d,), (d,), (d,),
                (d, F), (F,), (F, d), (d,), (d,), (d,), (d, V), (V,)]
    assert table[0::2] == [str(shape) for shape in expected]
    assert table[1::2] == [f"{math.prod(shape):,}" for shape in expected]


def test_total_and_shares():
    total = by_hand(V, T, d, F, L)
    assert V == 78 and total == 31_054  # worked by hand for the shipped corpus: 3,008 + 2 × 12,704 + 64 + 2,574
    assert SHOWN[50:52] == [f"{total:,}", f"{total:,}"]
    assert SHOWN[52] == f"{100 * L * (2 * d * F + F + d) / total:.0f}"
    assert SHOWN[53] == f"{100 * (2 * L + 1) * 2 * d / total:.1f}"


def test_closed_form_against_the_arrays_for_every_variant():
    for norm in ("layernorm", "rmsnorm"):
        for placement in ("pre", "post"):
            cfg = config.GPTConfig(vocab_size=7, seq_len=5, emb_dim=6, num_heads=3, ff_dim=10, num_layers=3,
                                   norm=norm, placement=placement)
            arrays = model.init_params(cfg)
            expected = by_hand(7, 5, 6, 10, 3, norm=2 if norm == "layernorm" else 1, final=placement == "pre")
            assert model.param_count(cfg) == sum(a.size for a in arrays.values()) == expected


def test_knowledge_check_numbers():
    assert SHOWN[54:58] == [str(d), str(F), f"{4 * d * d + 4 * d:,}", f"{2 * d * F + F + d:,}"]
    assert SHOWN[58] == str(4 * d)
    assert SHOWN[59:61] == [str(V), f"{math.log(V):.4f}"]
    assert SHOWN[61] == str(2 * d)  # lnf_g and lnf_b disappear with post-LN
    post = config.GPTConfig(vocab_size=V, placement="post")
    assert model.param_count(config.GPTConfig(vocab_size=V)) - model.param_count(post) == 2 * d
    assert len(SHOWN) == 62


def test_typed_description_of_the_live_example():
    defaults = KINDS["model"].defaults()
    assert "$V = 3$ characters, a context of four ids, $d = 4$, two heads, $F = 8$, one block" in PAGE
    assert (defaults["vocab_size"], len(defaults["ids"]), defaults["emb_dim"], defaults["num_heads"],
            defaults["ff_dim"], defaults["num_layers"]) == (3, 4, 4, 2, 8, 1)
    assert "ids `0 1 2 0` with targets `1 2 0 1`" in PAGE
    assert defaults["ids"] == [0, 1, 2, 0] and defaults["targets"] == [1, 2, 0, 1]
    assert defaults["targets"][:-1] == defaults["ids"][1:]  # each target is the next input


def test_cited_engine_test_exists():
    assert "`tests/engine/test_model.py`" in PAGE
    assert "placement" in (REPO / "tests" / "engine" / "test_model.py").read_text()
