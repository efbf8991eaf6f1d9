"""Byte-pair merges against merges worked by hand."""
import pytest

from engine import bpe
from engine.errors import LayerwiseError


def test_the_thee_thou_by_hand():
    # pairs of "the thee thou": th 3, he 2, "e " 2, " t" 2, ee, ho, ou 1 each -> merge th (3 times);
    # then (th, e) 2, (e, " ") 2, (" ", th) 2: the first one met wins -> "the"; then every pair occurs once: stop
    steps = bpe.bpe_merges("the thee thou", 5)
    assert [(pair, count) for pair, count, _ in steps] == [(("t", "h"), 3), (("th", "e"), 2)]
    assert steps[0][2] == ["th", "e", " ", "th", "e", "e", " ", "th", "o", "u"]
    assert steps[1][2] == ["the", " ", "the", "e", " ", "th", "o", "u"]


def test_overlapping_pairs_merge_left_to_right():
    assert bpe.merge_pair(list("aaa"), ("a", "a")) == ["aa", "a"]
    assert bpe.pair_counts(list("aaa"))[("a", "a")] == 2  # counted twice, merged once
    # "aaabdaaabac": aa 4 -> [aa a b d aa a b a c]; (aa, a) and (a, b) 2 each, (aa, a) met first -> aaa; then aaab
    steps = bpe.bpe_merges("aaabdaaabac", 3)
    assert [tokens for _, _, tokens in steps][-1] == ["aaab", "d", "aaab", "a", "c"]


def test_no_merges_and_bad_counts():
    assert bpe.bpe_merges("abc", 3) == []  # no pair occurs twice
    assert bpe.bpe_merges("", 2) == []
    with pytest.raises(LayerwiseError, match="num_merges must be a whole number"):
        bpe.bpe_merges("aa", -1)
