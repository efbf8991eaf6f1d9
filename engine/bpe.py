"""Byte-pair merges on a short text: how GPT-2's tokens are built, shown on characters.

This model reads characters. GPT-2 reads tokens made by byte-pair encoding: start from single symbols, then
repeatedly replace the most frequent adjacent pair by one new symbol. The Embedding page runs a few merges here to
show what that does to the vocabulary and to the length of a text. (GPT-2 starts from bytes, not characters, and
learned 50,000 merges from a large corpus; the procedure is the same.)
"""
from collections import Counter

from .errors import LayerwiseError


def pair_counts(tokens):
    """How often each adjacent pair occurs, overlapping pairs included; ties keep the order of first occurrence."""
    return Counter(zip(tokens, tokens[1:]))


def merge_pair(tokens, pair):
    """``tokens`` with every occurrence of ``pair`` replaced by the joined symbol, scanning left to right."""
    merged, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            merged.append(tokens[i] + tokens[i + 1])
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged


def bpe_merges(text, num_merges):
    """``[(pair, count, tokens after the merge), ...]``: ``num_merges`` merges of the most frequent pair.

    Starts from the characters of ``text``; stops early when no pair occurs twice (a merge would save nothing).
    """
    if not (isinstance(num_merges, int) and num_merges >= 0):
        raise LayerwiseError(f"bpe_merges: num_merges must be a whole number >= 0, got {num_merges!r}")
    tokens, steps = list(text), []
    for _ in range(num_merges):
        counts = pair_counts(tokens)
        if not counts:
            break
        pair, count = counts.most_common(1)[0]
        if count < 2:
            break
        tokens = merge_pair(tokens, pair)
        steps.append((pair, count, tokens))
    return steps
