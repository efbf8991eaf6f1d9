"""Byte-level BPE: merges worked by hand, the round trip on arbitrary Unicode, saving and loading, bad input."""
import math
from collections import Counter

import numpy as np
import pytest

from engine.__main__ import main
from engine.checkpoint import load_checkpoint, save_checkpoint
from engine.config import GPTConfig
from engine.data import load_corpus
from engine.errors import CheckpointError, LayerwiseError, VocabularyError
from engine.tokenizer import (BPE_TRAINING_CHARACTERS, BpeTokenizer, _readable, corpus_tokenizer, loss_per_character,
                              split_chunks, train_bpe, vocabulary_for, vocabulary_sweep)
from engine.train import TrainRun, TrainSettings, train_step


def test_the_thee_thou_by_hand():
    # chunks "the", " thee", " thou"; pairs inside them: th 3, he 2, " t" 2, ee, ho, ou 1 -> merge th (id 256);
    # then (th, e) 2 and (" ", th) 2, (th, e) met first -> "the" (id 257); then every pair occurs once: stop
    tokenizer = train_bpe("the thee thou", 300)
    assert tokenizer.merges == [(b"t", b"h"), (b"th", b"e")] and tokenizer.vocab_size == 258
    # " thee" is space, the, e; " thou" is space, th, o, u (byte values 32, 101, 111, 117)
    assert tokenizer.encode("the thee thou").tolist() == [257, 32, 257, 101, 32, 256, 111, 117]
    assert [pieces for _, pieces in tokenizer.merge_steps(" thee")] == [[b" ", b"th", b"e", b"e"],
                                                                       [b" ", b"the", b"e"]]


def test_merges_work_on_bytes_so_a_two_byte_character_is_one_merge():
    # "ééé" is C3 A9 three times: (C3, A9) 3 -> é (256); then (é, é) counted twice (overlapping) -> éé (257)
    tokenizer = train_bpe("ééé", 260)
    assert tokenizer.tokens[256:] == ["é".encode(), "éé".encode()]
    assert tokenizer.encode("ééé").tolist() == [257, 256]
    assert tokenizer.decode([0xC3]) == "\ufffd"  # half a character decodes to the replacement mark


def test_round_trip_on_arbitrary_unicode():
    rng = np.random.default_rng(0)
    tokenizer = train_bpe(load_corpus()[:BPE_TRAINING_CHARACTERS], 400)
    planes = [(0x20, 0x7F), (0x80, 0x800), (0x800, 0xD800), (0xE000, 0x10000), (0x10000, 0x110000)]
    for _ in range(200):
        low, high = planes[rng.integers(len(planes))]
        points = rng.integers(low, high, size=rng.integers(0, 30))
        mixed = "".join(chr(p) for p in points) + rng.choice(["", " the", "\n\n", "  ", "'s"])
        assert tokenizer.decode(tokenizer.encode(mixed)) == mixed
    assert "".join(split_chunks("a  b,\tc\n")) == "a  b,\tc\n"


def test_the_corpus_gets_shorter_and_saving_keeps_every_token():
    text = load_corpus()
    tokenizer = corpus_tokenizer(512)  # learned from the corpus's first characters, applied to all of it
    assert tokenizer.merges == train_bpe(text[:BPE_TRAINING_CHARACTERS], 512).merges
    ids = tokenizer.encode(text)
    assert len(text) > BPE_TRAINING_CHARACTERS and tokenizer.decode(ids) == text
    assert tokenizer.vocab_size == 512 and len(ids) < 0.6 * len(text.encode("utf-8"))
    loaded = BpeTokenizer.from_json(tokenizer.to_json())
    assert loaded.tokens == tokenizer.tokens and loaded.encode(text).tolist() == ids.tolist()


def test_bad_input_is_named():
    with pytest.raises(LayerwiseError, match=r"vocab_size must be an integer >= 256"):
        train_bpe("abc", 100)
    tokenizer = train_bpe("aaaa", 257)
    with pytest.raises(VocabularyError, match=r"id 257 is not a token of this 257-token vocabulary"):
        tokenizer.decode([1, 257])
    with pytest.raises(VocabularyError, match=r"merge 0 must be two ids below 256"):
        BpeTokenizer.from_json('{"kind": "bpe", "merges": [[1, 300]]}')
    with pytest.raises(VocabularyError, match=r"expected \{"):
        BpeTokenizer.from_json("not json")


TEXT = "the cat sat on the mat; the rat ate the hat. " * 30
TINY = GPTConfig(seq_len=8, emb_dim=8, num_heads=2, ff_dim=16, num_layers=1, tokenizer="bpe:270")


def test_a_model_trains_on_bpe_tokens_and_its_checkpoint_keeps_the_merges(tmp_path, capsys):
    merges = train_bpe(TEXT, 270)  # trained independently of the run
    run = TrainRun(TINY, TEXT, TrainSettings(steps=1))
    assert run.vocab.merges == merges.merges and run.config.vocab_size == merges.vocab_size == 270
    ids = merges.encode(TEXT)
    assert len(run.train_ids) + len(run.val_ids) == len(ids) < len(TEXT) / 2  # merged tokens: a shorter sequence
    np.testing.assert_array_equal(np.concatenate([run.train_ids, run.val_ids]), ids)
    # a fresh model predicts near-uniformly over the 270 tokens: its first loss is close to ln 270
    assert abs(train_step(run) - math.log(270)) < 0.1
    corpus, checkpoint = tmp_path / "corpus.txt", tmp_path / "bpe.npz"
    corpus.write_text(TEXT, encoding="utf-8")
    sizes = [f"{key}={value}" for key, value in TINY.to_dict().items() if key in ("seq_len", "emb_dim", "num_heads",
                                                                                   "ff_dim", "num_layers", "tokenizer")]
    assert main(["train", "--corpus", str(corpus), "--steps", "3", "--out", str(checkpoint),
                 *[arg for size in sizes for arg in ("--set", size)]]) == 0
    params, config, vocab, step = load_checkpoint(str(checkpoint))
    assert (config.tokenizer, config.vocab_size, vocab.merges, step) == ("bpe:270", 270, merges.merges, 3)
    capsys.readouterr()
    talk = ["talk", "--checkpoint", str(checkpoint), "--prompt", "the naïve ☃", "--tokens", "12"]
    assert main(talk) == 0  # a character never seen is a few byte tokens
    plain = capsys.readouterr().out
    assert main(talk + ["--kv-cache"]) == 0
    assert plain.startswith("the naïve ☃") and capsys.readouterr().out == plain
    resumed = tmp_path / "resumed.npz"
    other = tmp_path / "other.txt"
    other.write_text("Zebras! " * 40, encoding="utf-8")  # new characters: bytes, so the model's merges read them
    assert main(["train", "--corpus", str(other), "--steps", "2", "--resume", str(checkpoint), "--out",
                 str(resumed)]) == 0
    assert load_checkpoint(str(resumed))[2].merges == merges.merges


def test_a_long_text_trains_its_merges_on_its_first_characters_only():
    head = "ab " * (BPE_TRAINING_CHARACTERS // 3)  # the pairs a-b and space-a fill the training part
    text = head + "zzzz zzzz zzzz " * 10  # z-z occurs 60 times, but only after the training part
    tokenizer = vocabulary_for(TINY, text)
    merged = [a + b for a, b in tokenizer.merges]
    assert len(head) <= BPE_TRAINING_CHARACTERS and b"zz" not in merged and b"ab" in merged
    assert tokenizer.decode(tokenizer.encode(text)) == text


def test_a_checkpoint_whose_merges_are_damaged_is_named(tmp_path):
    run = TrainRun(TINY, TEXT, TrainSettings(steps=1))
    path = tmp_path / "bpe.npz"
    save_checkpoint(path, run.params, run.config, run.vocab)
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    arrays["vocab_json"] = np.array('{"kind": "bpe", "merges": [[1, 999]]}')
    np.savez(path, **arrays)
    with pytest.raises(CheckpointError, match=r"vocab_json in .* holds no BPE merges: .*merge 0 must be two ids"):
        load_checkpoint(str(path))


def test_a_smaller_vocabulary_is_a_prefix_of_the_merges():
    text = "the thee thou the thee"
    rows = vocabulary_sweep(text, (256, 257, 300))
    # 256: bytes only, 22 tokens; 257: th merged, 5 occurrences fewer; 300: as many merges as pay
    assert rows[0][:2] == (256, 22) and rows[1][:2] == (257, 17)
    assert rows[2][1] == len(train_bpe(text, 300).encode(text))


def test_show_marks_spaces_newlines_and_partial_characters():
    tokenizer = train_bpe("the thee thou", 300)
    assert tokenizer.show("the thee\n") == "the · ␣ · the · e · ↵"
    assert tokenizer.show("é") == "<0xC3> · <0xA9>"  # two bytes, never merged here


def test_loss_per_character_by_hand():
    # 2.2 nats per token over 100 tokens spelling 250 characters: 220 nats in all, 0.88 per character
    assert abs(loss_per_character(2.2, 100, 250) - 0.88) < 1e-15
    with pytest.raises(LayerwiseError, match="at least one character"):
        loss_per_character(1.0, 1, 0)


def test_a_piece_mixing_whole_characters_and_stray_bytes_keeps_the_characters():
    assert _readable("aé".encode() + b"\xe2\x98") == "aé<0xE2><0x98>"  # the snowman's third byte is missing


def _recounting_bpe(text, vocab_size):
    """The merges of BPE done the slow, plain way: count every pair of every chunk again before each merge; the
    first pair met wins a tie (Counter keeps insertion order, and max keeps the first of equals)."""
    words = Counter(split_chunks(text))
    pieces = {word: [bytes([b]) for b in word.encode("utf-8")] for word in words}
    merges = []
    while 256 + len(merges) < vocab_size:
        counts = Counter()
        for word, occurrences in words.items():
            for pair in zip(pieces[word], pieces[word][1:]):
                counts[pair] += occurrences
        if not counts or max(counts.values()) < 2:
            return merges
        pair = max(counts, key=counts.get)
        merges.append(pair)
        for word, word_pieces in pieces.items():
            merged, i = [], 0
            while i < len(word_pieces):
                if tuple(word_pieces[i:i + 2]) == pair:
                    merged.append(pair[0] + pair[1])
                    i += 2
                else:
                    merged.append(word_pieces[i])
                    i += 1
            pieces[word] = merged
    return merges


def test_kept_counts_learn_the_same_merges_as_counting_again_each_time():
    rng = np.random.default_rng(7)
    texts = [load_corpus()[:6000], "aaaa aaaa aa", "abab abab ba ab", "ééé éé"]
    texts += ["".join(rng.choice(list("ab é\n"), size=rng.integers(5, 200))) for _ in range(30)]
    for text in texts:
        assert train_bpe(text, 400).merges == _recounting_bpe(text, 400), text[:40]
