"""Widget kind ``tokenizer``: a text the reader types, cut into the corpus tokenizer's tokens, merge by merge, with
every token's id, and how many tokens the text takes at other vocabulary sizes."""
from ..config import BYTE_VOCAB
from ..tokenizer import BpeTokenizer, corpus_tokenizer
from .kind import Block, Dim, Kind, Operand, Result
from .svg import token_rows

LARGEST = 512  # the corpus tokenizer trained once; a smaller vocabulary is a prefix of its merges
SWEEP = (256, 300, 400, 512)
SHOWN_MERGES = 12  # stages drawn after the bytes; a longer trace shows its first ones and its last


def compute(text, vocab_size):
    tokenizer = BpeTokenizer(corpus_tokenizer(LARGEST).merges[:int(vocab_size) - BYTE_VOCAB])
    byte_ids = list(text.encode("utf-8"))  # (m,): the ids before any merge, one per byte
    trace = tokenizer.merge_trace(text)
    ids = tokenizer.encode(text)  # (n,)

    def row(pieces):
        return [(tokenizer.piece_text(piece), tokenizer.ids[piece]) for piece in pieces]

    def merged(step):
        (left, right), pieces = trace[step]
        return (f"merge {step + 1}: {tokenizer.piece_text(left)} + {tokenizer.piece_text(right)} → "
                f"{tokenizer.piece_text(left + right)} ({tokenizer.ids[left + right]})", row(pieces))

    rows = [("the bytes", row(bytes([b]) for b in byte_ids))]
    if len(trace) <= SHOWN_MERGES:
        rows += [merged(step) for step in range(len(trace))]
    else:  # a long text: the first merges, then the last, so the picture stays a few screens tall
        rows += [merged(step) for step in range(SHOWN_MERGES - 1)]
        rows += [(f"… {len(trace) - SHOWN_MERGES} merges not drawn …", []), merged(len(trace) - 1)]
    lengths = ", ".join(f"{size}: {len(BpeTokenizer(corpus_tokenizer(LARGEST).merges[:size - BYTE_VOCAB]).encode(text))}"
                        for size in SWEEP)
    notes = (
        f"{len(byte_ids)} bytes became {len(ids)} tokens ({len(byte_ids) / len(ids):.2f} bytes per token) through "
        f"{len(trace)} merges, applied in the order they were learned; the vocabulary holds "
        f"{tokenizer.vocab_size} tokens, of which {tokenizer.vocab_size - BYTE_VOCAB} are merges.",
        f"The same text in tokens, by vocabulary size: {lengths}. More merges, fewer and longer tokens.",
        "The tokens: " + " · ".join(tokenizer.piece_text(tokenizer.tokens[i]) for i in ids),
    )
    return Result(
        blocks=(Block("bytes", "the text's UTF-8 bytes: ids before any merge", byte_ids, ("m",), "step"),
                Block("ids", "ids = encode(text)", ids, ("n",))),
        notes=notes,
        plots=(("Merges applied to the text, earliest learned first (each box: a token above its id)",
                token_rows(rows, "the text's tokens after each merge")),),
    )


KIND = Kind(
    name="tokenizer",
    title="Byte-pair encoding, merge by merge",
    description="Type any text (accents and symbols too) and choose the vocabulary size, from 256 (bytes only) to "
                f"{LARGEST}; the merges were learned on the corpus.",
    dims=(Dim("m", "b", 1, 4 * 48), Dim("n", "k", 1, 4 * 48)),
    inputs=(
        Operand("text", "text to tokenize", (), "the other three", max_length=48),
        Operand("vocab_size", "vocabulary size N", (), 400, integer=True, bounds=(BYTE_VOCAB, LARGEST)),
    ),
    compute=compute,
)
