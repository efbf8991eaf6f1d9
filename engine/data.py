"""The character-level data pipeline: a corpus, its vocabulary, encoding, and random training windows.

The vocabulary is the sorted set of characters in the corpus, so it is fixed by the text alone and any Unicode
character (accents, dashes, ...) is simply one more token.
"""
from pathlib import Path

import numpy as np

from .errors import LayerwiseError, VocabularyError

CORPUS_PATH = Path(__file__).parent / "data" / "moby-dick.txt"


def load_corpus(path=None):
    """The training text, UTF-8; the shipped public-domain corpus by default."""
    path = Path(path) if path is not None else CORPUS_PATH
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LayerwiseError(f"load_corpus: cannot read {path}: {error}") from None


def build_vocab(text):
    """The sorted list of distinct characters in ``text``; a character's id is its position in this list."""
    if not text:
        raise VocabularyError("build_vocab: the text is empty, so there is no vocabulary")
    return sorted(set(text))


def encode(text, vocab):
    """Token ids ``(n,)`` for ``text``; a character missing from the vocabulary is an error naming it."""
    index = {ch: i for i, ch in enumerate(vocab)}
    unknown = sorted({ch for ch in text if ch not in index})
    if unknown:
        raise VocabularyError(f"encode: character {unknown[0]!r} (at position {text.index(unknown[0])}) is not in "
                              f"the vocabulary of {len(vocab)} characters; unknown: {''.join(unknown)!r}")
    return np.array([index[ch] for ch in text], dtype=np.int64)


def decode(ids, vocab):
    """The text spelled by token ids."""
    ids = np.asarray(ids).reshape(-1)
    if ids.size and ids.dtype.kind not in "iu":
        raise VocabularyError(f"decode: ids must be integers, got an array of {ids.dtype}")
    bad = [int(i) for i in ids if not 0 <= i < len(vocab)]
    if bad:
        raise VocabularyError(f"decode: id {bad[0]} has no character in a vocabulary of {len(vocab)}")
    return "".join(vocab[int(i)] for i in ids)


def split_ids(ids, val_fraction=0.1):
    """The first ``1 - val_fraction`` of the ids for training, the rest for validation."""
    if not 0.0 <= val_fraction < 1.0:
        raise LayerwiseError(f"split_ids: val_fraction must lie in [0, 1), got {val_fraction}")
    cut = int(len(ids) * (1.0 - val_fraction))
    return ids[:cut], ids[cut:]


def get_batch(ids, batch_size, seq_len, rng):
    """``batch_size`` random windows: inputs x ``(B, T)`` and targets y ``(B, T)``, y being x shifted by one."""
    if len(ids) < seq_len + 1:
        raise LayerwiseError(f"get_batch: need at least seq_len + 1 = {seq_len + 1} ids, got {len(ids)}")
    starts = rng.integers(0, len(ids) - seq_len, size=batch_size)  # (B,)
    window = starts[:, None] + np.arange(seq_len)[None, :]  # (B, T) indices, no loop over tokens
    return ids[window], ids[window + 1]
