"""Byte-level BPE, the tokenizer of GPT-2 and its successors, trained on the corpus: ``engine.bpe``'s merges on bytes.

Text becomes UTF-8 bytes, so the 256 byte values are the first 256 tokens and no text is ever out of vocabulary;
each learned merge adds one token, the two it joins side by side. The text is first cut into chunks (a word with its
leading space, a run of punctuation, a run of spaces), and merges never cross a chunk, so a token never spans two
words. Encoding applies the merges in the order they were learned; decoding joins the tokens' bytes, so
``decode(encode(text)) == text`` for any text.
"""
import functools
import json
import re
from collections import Counter, defaultdict

import numpy as np

from .bpe import merge_pair, pair_counts
from .config import BYTE_VOCAB, tokenizer_vocab_size
from .data import build_vocab, decode, encode, load_corpus
from .errors import LayerwiseError, VocabularyError

# Merges are learned from a text's first 20,000 characters only: on the whole shipped corpus a 512-token vocabulary
# takes about six times the CPU (0.33 s against 0.06 s in CPython; the browser's tokenizer widget learns it on first
# use, several times slower), shares most of its merges with this one and encodes the corpus only a few percent
# shorter.
BPE_TRAINING_CHARACTERS = 20_000
CHUNK = re.compile(r" ?\w+| ?[^\s\w]+|\s+")  # every character is a word character, a space, or neither: no gaps


def split_chunks(text):
    """The chunks merges stay inside; joined together they give back ``text``."""
    return CHUNK.findall(text)


def _byte_pieces(chunk):
    return [bytes([byte]) for byte in chunk.encode("utf-8")]


class BpeTokenizer:
    """Merges ``[(left, right), ...]`` of byte strings; token ``256 + i`` is merge i's joined bytes."""

    def __init__(self, merges):
        self.merges = [(bytes(left), bytes(right)) for left, right in merges]
        self.tokens = [bytes([byte]) for byte in range(BYTE_VOCAB)] + [left + right for left, right in self.merges]
        self.ids = {token: i for i, token in enumerate(self.tokens)}
        if len(self.ids) != len(self.tokens):
            raise VocabularyError("BpeTokenizer: two merges make the same token; the merges are not from one training")
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        self._chunk_ids = {}  # a corpus repeats its words: encode each distinct chunk once

    @property
    def vocab_size(self):
        return len(self.tokens)

    def __len__(self):  # a vocabulary's size, as a character vocabulary's len() (checkpoints, configs)
        return len(self.tokens)

    def merge_steps(self, chunk):
        """The pieces of one chunk after each merge that applies, earliest-learned first: ``[(pair, pieces)]``."""
        pieces, steps = _byte_pieces(chunk), []
        while len(pieces) > 1:
            ranked = [(self.ranks[pair], pair) for pair in zip(pieces, pieces[1:]) if pair in self.ranks]
            if not ranked:
                break
            pair = min(ranked)[1]
            pieces = merge_pair(pieces, pair)
            steps.append((pair, pieces))
        return steps

    def merge_trace(self, text):
        """The pieces of the whole of ``text`` after each merge, earliest-learned first: ``[(pair, pieces)]``. A merge
        applies in every chunk that holds its pair at once; each chunk still sees its pairs in rank order (a lower
        rank anywhere would have come first), so the last pieces are what ``encode`` gives."""
        chunks, steps = [_byte_pieces(chunk) for chunk in split_chunks(text)], []
        while True:
            ranked = [(self.ranks[pair], pair) for pieces in chunks for pair in zip(pieces, pieces[1:])
                      if pair in self.ranks]
            if not ranked:
                return steps
            pair = min(ranked)[1]
            chunks = [merge_pair(pieces, pair) for pieces in chunks]
            steps.append((pair, [piece for pieces in chunks for piece in pieces]))

    def piece_text(self, piece):
        """One token's bytes as the pages write it: a space as ``␣``, a line break as ``↵``, a partial character
        as ``<0xC3>``."""
        return _readable(piece).replace(" ", "␣").replace("\n", "↵")

    def _encode_chunk(self, chunk):
        if chunk not in self._chunk_ids:
            steps = self.merge_steps(chunk)
            self._chunk_ids[chunk] = [self.ids[piece] for piece in (steps[-1][1] if steps else _byte_pieces(chunk))]
        return self._chunk_ids[chunk]

    def encode(self, text):
        """Token ids ``(n,)`` of ``text``."""
        if not isinstance(text, str):
            raise VocabularyError(f"encode: text must be a string, got {type(text).__name__}")
        return np.array([i for chunk in split_chunks(text) for i in self._encode_chunk(chunk)], dtype=np.int64)

    def decode(self, ids):
        """The text of token ids; bytes that are not whole UTF-8 characters (a model's odd sample) show as U+FFFD."""
        ids = np.asarray(ids).reshape(-1)
        bad = [int(i) for i in ids if not 0 <= i < self.vocab_size]
        if bad:
            raise VocabularyError(f"decode: id {bad[0]} is not a token of this {self.vocab_size}-token vocabulary")
        return b"".join(self.tokens[int(i)] for i in ids).decode("utf-8", errors="replace")

    def show(self, text):
        """The tokens of ``text`` as a readable string: pieces joined by ``·``, a space as ``␣``, a byte that is not
        a whole character as ``<0xC3>`` (SentencePiece's spelling of a byte token)."""
        return " · ".join(self.piece_text(self.tokens[int(i)]) for i in self.encode(text))

    def to_json(self):
        """The merges as id pairs, enough to rebuild the tokenizer."""
        return json.dumps({"kind": "bpe", "merges": [[self.ids[left], self.ids[right]] for left, right in self.merges]})

    @classmethod
    def from_json(cls, text):
        """The tokenizer whose ``to_json`` gave ``text``; a malformed text is a VocabularyError saying what is wrong."""
        try:
            data = json.loads(text)
            pairs = data["merges"] if data.get("kind") == "bpe" else None
        except (json.JSONDecodeError, AttributeError, KeyError, TypeError):
            pairs = None
        if not isinstance(pairs, list):
            raise VocabularyError("BpeTokenizer.from_json: expected {\"kind\": \"bpe\", \"merges\": [[left, right], ...]}")
        tokens = [bytes([byte]) for byte in range(BYTE_VOCAB)]
        merges = []
        for i, pair in enumerate(pairs):
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(isinstance(j, int) and 0 <= j < len(tokens) for j in pair)):
                raise VocabularyError(f"BpeTokenizer.from_json: merge {i} must be two ids below {len(tokens)}, "
                                      f"got {pair!r}")
            merges.append((tokens[pair[0]], tokens[pair[1]]))
            tokens.append(tokens[pair[0]] + tokens[pair[1]])
        return cls(merges)


def train_bpe(text, vocab_size):
    """A tokenizer of at most ``vocab_size`` tokens: merge the most frequent adjacent pair of the corpus, counted
    inside chunks, until the vocabulary is full or no pair occurs twice. Ties go to the pair met first (reading the
    distinct chunks in order of first appearance, each left to right).

    The pair counts are kept up to date rather than counted again for every merge: a merge changes only the chunks
    that hold its pair, so only those are taken out of the counts and put back merged."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < BYTE_VOCAB:
        raise LayerwiseError(f"train_bpe: vocab_size must be an integer >= {BYTE_VOCAB} (the bytes), got {vocab_size!r}")
    words = Counter(split_chunks(text))  # (chunk -> how often it occurs), in order of first appearance
    order = {word: i for i, word in enumerate(words)}
    pieces = {word: _byte_pieces(word) for word in words}
    counts, holders = Counter(), defaultdict(set)  # pair -> occurrences in the corpus; pair -> chunks holding it

    def tally(word, sign):
        for pair, count in pair_counts(pieces[word]).items():
            counts[pair] += sign * count * words[word]
            if sign > 0:
                holders[pair].add(word)
            else:
                holders[pair].discard(word)
                if not counts[pair]:
                    del counts[pair]

    def first_met(pair):
        word = min(holders[pair], key=order.get)
        return order[word], list(zip(pieces[word], pieces[word][1:])).index(pair)

    for word in words:
        tally(word, +1)
    merges = []
    while BYTE_VOCAB + len(merges) < vocab_size and counts:
        most = max(counts.values())
        if most < 2:
            break
        pair = min((pair for pair, count in counts.items() if count == most), key=first_met)
        merges.append(pair)
        for word in list(holders[pair]):
            tally(word, -1)
            pieces[word] = merge_pair(pieces[word], pair)
            tally(word, +1)
    return BpeTokenizer(merges)


@functools.lru_cache(maxsize=4)
def trained_tokenizer(text, vocab_size):
    """``train_bpe(text, vocab_size)``, trained once per text and size (pages and training runs ask often)."""
    return train_bpe(text, vocab_size)


def corpus_tokenizer(vocab_size):
    """The tokenizer of ``vocab_size`` tokens trained on the shipped corpus's first BPE_TRAINING_CHARACTERS."""
    return trained_tokenizer(load_corpus()[:BPE_TRAINING_CHARACTERS], vocab_size)


def vocabulary_for(config, text):
    """What a model of ``config`` reads ``text`` with: the text's sorted characters (``tokenizer="char"``), or a
    byte-level BPE tokenizer trained on the text's first BPE_TRAINING_CHARACTERS (``"bpe:N"``; it encodes all of
    it). Either has a len(), and ``encode_text`` and ``decode_ids`` take either."""
    size = tokenizer_vocab_size(config.tokenizer)
    return build_vocab(text) if size is None else trained_tokenizer(text[:BPE_TRAINING_CHARACTERS], size)


def encode_text(text, vocab):
    """Ids ``(n,)`` of ``text`` under a character vocabulary or a BpeTokenizer."""
    return vocab.encode(text) if isinstance(vocab, BpeTokenizer) else encode(text, vocab)


def decode_ids(ids, vocab):
    """The text of ``ids`` under a character vocabulary or a BpeTokenizer."""
    return vocab.decode(ids) if isinstance(vocab, BpeTokenizer) else decode(ids, vocab)


@functools.lru_cache(maxsize=4)
def vocabulary_sweep(text, vocab_sizes):
    """``[(vocab_size, tokens in text, bytes per token)]`` for a tuple of sizes: merges are learned in order, so one
    training at the largest size (on the text's first BPE_TRAINING_CHARACTERS) gives every smaller tokenizer as a
    prefix of its merges; each encodes the whole text."""
    largest = trained_tokenizer(text[:BPE_TRAINING_CHARACTERS], max(vocab_sizes))
    rows = []
    for size in vocab_sizes:
        count = len(BpeTokenizer(largest.merges[:size - BYTE_VOCAB]).encode(text))
        rows.append((size, count, len(text.encode("utf-8")) / count))
    return rows


def loss_per_character(loss_per_token, num_tokens, num_characters):
    """A mean loss per token spread over the characters those tokens spell: the total is the same, so two
    tokenizers' models compare on one scale (a token of several characters carries all of their surprise)."""
    if num_characters < 1:
        raise LayerwiseError(f"loss_per_character: need at least one character, got {num_characters}")
    return loss_per_token * num_tokens / num_characters


def _readable(piece):
    """``piece``'s bytes as text, each byte that does not complete a UTF-8 character written ``<0xC3>``."""
    text, at = [], 0
    while at < len(piece):
        for width in (4, 3, 2, 1):  # UTF-8 is self-delimiting: the first width that decodes is whole characters
            try:
                text.append(piece[at:at + width].decode("utf-8"))
                at += width
                break
            except UnicodeDecodeError:
                continue
        else:
            text.append(f"<0x{piece[at]:02X}>")
            at += 1
    return "".join(text)
