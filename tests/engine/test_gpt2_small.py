"""GPT-2 small's sizes through the engine's closed forms, against the published count and arithmetic by hand."""
import math

import numpy as np

from engine import config, init, model, norms


def test_the_parts_of_gpt2_small_by_hand():
    parts = model.param_count_by_part(config.GPT2_SMALL)
    assert parts == {
        "token_embedding": 50257 * 768,  # 38,597,376
        "position_embedding": 1024 * 768,  # 786,432
        "attention": 12 * (4 * 768 * 768 + 4 * 768),  # 12 * 2,362,368
        "feed_forward": 12 * (2 * 768 * 3072 + 3072 + 768),  # 12 * 4,722,432
        "norms": 25 * 2 * 768,  # two per block and a final one: 38,400
        "head": 768 * 50257 + 50257,
    }
    assert model.param_count(config.GPT2_SMALL) == sum(parts.values())


def test_tying_the_head_gives_the_published_124m():
    # GPT-2 reuses the token table as its output matrix and has no output bias: dropping the untied head from the
    # engine's count must land on the 124,439,808 parameters reported for the released small model.
    parts = model.param_count_by_part(config.GPT2_SMALL)
    assert model.param_count(config.GPT2_SMALL) - parts["head"] == 124_439_808


def test_the_default_model_parts_add_up_to_its_arrays():
    cfg = config.GPTConfig(vocab_size=11)
    params = model.init_params(cfg)
    parts = model.param_count_by_part(cfg)
    assert parts["token_embedding"] == params["tok_emb"].size and parts["head"] == params["head_w"].size + 11
    assert parts["norms"] == sum(a.size for n, a in params.items() if ".ln" in n or n.startswith("lnf"))
    assert sum(parts.values()) == model.count_params(params)


def test_gpt2_std():
    assert init.gpt2_std() == 0.02
    assert math.isclose(init.gpt2_std(12), 0.02 / math.sqrt(24))  # nanoGPT's c_proj std for GPT-2 small
    assert math.isclose(init.gpt2_std(2), 0.01)


def test_xavier_std_and_the_default_eps():
    assert math.isclose(init.xavier_std((768, 768)), 1 / math.sqrt(768))  # sqrt(2 / 1536)
    assert math.isclose(init.xavier_std((32, 128)), math.sqrt(2 / 160))
    assert norms.DEFAULT_EPS == 1e-5
    # the default is what layernorm_forward uses: a row of spread^2 = 1e-5 keeps sqrt(1/2) of its size
    x = np.array([-1.0, 1.0]) * math.sqrt(1e-5)
    assert np.allclose(norms.layernorm_forward(x, np.ones(2), np.zeros(2))[0], [-math.sqrt(0.5), math.sqrt(0.5)])
