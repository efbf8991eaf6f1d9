"""Widget kind ``tokenizer`` and text inputs: the ids are the corpus tokenizer's, the merges replay to them, and a text
cell's problems are named in the browser's words."""
import numpy as np
import pytest

from engine.errors import LayerwiseError
from engine.examples import KINDS, run
from engine.examples.kind import Block, Kind, Operand, Result
from engine.tokenizer import BpeTokenizer, corpus_tokenizer
from results import values


def _tokenizer(size):
    return BpeTokenizer(corpus_tokenizer(512).merges[:size - 256])


@pytest.mark.parametrize("text, size", [("the other three", 400), ("naïve ☃ café", 512), ("  a\tb", 300),
                                        ("x", 256), ("é" * 48, 512)])
def test_ids_are_the_corpus_tokenizers_and_start_from_the_utf8_bytes(text, size):
    result = run("tokenizer", {"text": text, "vocab_size": size})
    assert values(result, "bytes").tolist() == list(text.encode("utf-8"))
    assert values(result, "ids").tolist() == _tokenizer(size).encode(text).tolist()


def test_at_256_nothing_merges_and_every_byte_is_a_token():
    result = run("tokenizer", {"text": "the ☃", "vocab_size": 256})
    assert values(result, "ids").tolist() == [116, 104, 101, 32, 0xE2, 0x98, 0x83]
    assert result["notes"][0].startswith("7 bytes became 7 tokens (1.00 bytes per token) through 0 merges")


def test_the_merge_trace_replays_encode_on_random_text():
    rng = np.random.default_rng(4)
    tokenizer = _tokenizer(512)
    alphabet = list("etaoinshrdlu ,.'\n") + ["é", "☃", "ß"]
    for _ in range(100):
        text = "".join(rng.choice(alphabet, size=rng.integers(1, 40)))
        trace = tokenizer.merge_trace(text)
        last = trace[-1][1] if trace else [bytes([b]) for b in text.encode("utf-8")]
        assert [tokenizer.ids[piece] for piece in last] == tokenizer.encode(text).tolist()
        ranks = [tokenizer.ranks[pair] for pair, _ in trace]
        assert ranks == sorted(ranks)  # earliest learned first, each applied once everywhere
        counts = [len(text.encode("utf-8"))] + [len(pieces) for _, pieces in trace]
        assert all(after < before for before, after in zip(counts, counts[1:]))  # every merge joins something


def test_the_picture_has_a_row_per_merge_after_the_bytes():
    result = run("tokenizer", {"text": "the other three", "vocab_size": 400})
    merges = len(_tokenizer(400).merge_trace("the other three"))
    svg = result["plots"][0]["svg"]
    assert svg.count(" → ") == merges and ">the bytes</text>" in svg
    long = run("tokenizer", {"text": "the whale, the ship and the sea at the end of it", "vocab_size": 512})
    trace = _tokenizer(512).merge_trace("the whale, the ship and the sea at the end of it")
    svg = long["plots"][0]["svg"]
    assert len(trace) > 12 and svg.count(" → ") == 12  # eleven first merges and the last
    assert f"merge {len(trace)}: " in svg and f"… {len(trace) - 12} merges not drawn …" in svg


@pytest.mark.parametrize("raw, message", [
    ("", "tokenizer example: text is empty"),
    ("x" * 49, "tokenizer example: text has 49 characters; at most 48 fit"),
    (12, "tokenizer example: text must be text, got int"),
])
def test_a_bad_text_is_named(raw, message):
    with pytest.raises(LayerwiseError, match=f"^{message}$"):
        run("tokenizer", {"text": raw, "vocab_size": 300})


def test_length_counts_characters_not_bytes_or_utf16_units():
    run("tokenizer", {"text": "☃" * 48, "vocab_size": 300})  # 144 bytes, 48 characters: fits
    assert KINDS["tokenizer"].spec()["inputs"][0]["text"] == 48
    assert KINDS["linear"].spec()["inputs"][0]["text"] is None


def test_a_text_input_must_be_a_plain_scalar():
    with pytest.raises(LayerwiseError, match="text input s must be a scalar without integer or bounds"):
        Kind(name="bad", title="t", dims=(), inputs=(Operand("s", "s", (), "a", integer=True, max_length=4),),
             compute=lambda s: Result(blocks=(Block("n", "n", np.zeros(()), ()),)))
