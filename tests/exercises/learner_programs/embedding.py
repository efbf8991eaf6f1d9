"""Embedding lookup, its backward with repeated ids, and token plus position embeddings."""
from engine import exercises

from . import Correct, Wrong, changed, given, refused

EMBEDDING_BACKWARD = exercises.get("embedding-backward")
FORWARD = given("embedding-backward")
LOOKUP = "a 2×3 batch of ids with repeats and a 4×3 table"
REPEATED = "ids [[0, 2, 0], [1, 0, 3]] (id 0 three times) into a 4×2 table"
SEQUENCES = "2 sequences of 3 tokens, V = 4, T_max = 5, d = 2"

PROGRAMS = [
    Correct("embedding-forward", "a loop over the flattened ids", '''
def embedding_forward(ids, table):
    rows = [table[i] for i in np.ravel(ids)]
    return np.array(rows).reshape(np.shape(ids) + (table.shape[1],))
'''),
    Correct("embedding-forward", "np.take along the first axis", '''
def embedding_forward(ids, table):
    return np.take(table, ids, axis=0)
'''),
    Correct("embedding-forward", "one-hot rows times the table", '''
def embedding_forward(ids, table):
    return np.eye(table.shape[0])[ids] @ table
'''),
    Wrong("embedding-forward", "ids flattened and never reshaped", '''
def embedding_forward(ids, table):
    return table[ids.ravel()]
''', f"On {LOOKUP}, `out` has shape (6, 3) but should have shape (2, 3, 3)."),
    Wrong("embedding-forward", "float32", '''
def embedding_forward(ids, table):
    return table[ids].astype(np.float32)
''', f"On {LOOKUP}, `out` has dtype float32 but should have dtype float64."),
    Wrong("embedding-forward", "the table cleared after the lookup", '''
def embedding_forward(ids, table):
    out = table[ids].copy()
    table[:] = 0.0
    return out
''', changed(LOOKUP, "embedding_forward", "table")),
    Wrong("embedding-forward", "the engine's lookup under another name", '''
import engine.embedding as E

def embedding_forward(ids, table):
    return E.embedding_forward(ids, table)[0]
''', refused("embedding_forward", "engine.embedding.embedding_forward")),

    Correct("embedding-backward", "a loop adding row by row", FORWARD + '''
def embedding_backward(dout, ids, table):
    dtable = np.zeros_like(table)
    for i, row in zip(ids.reshape(-1), dout.reshape(-1, dout.shape[-1])):
        dtable[i] += row
    return dtable
'''),
    Correct("embedding-backward", "np.bincount per column, with minlength", FORWARD + '''
def embedding_backward(dout, ids, table):
    flat = dout.reshape(-1, dout.shape[-1])
    columns = [np.bincount(ids.ravel(), weights=flat[:, j], minlength=table.shape[0]) for j in range(flat.shape[1])]
    return np.stack(columns, axis=1)
'''),
    Correct("embedding-backward", "the transposed one-hot matrix times dout", FORWARD + '''
def embedding_backward(dout, ids, table):
    onehot = np.eye(table.shape[0])[ids.ravel()]          # (N, V)
    return onehot.T @ dout.reshape(-1, dout.shape[-1])    # (V, d)
'''),
    Wrong("embedding-backward", "plain assignment keeps the last occurrence", FORWARD + '''
def embedding_backward(dout, ids, table):
    dtable = np.zeros_like(table)
    dtable[ids] = dout
    return dtable
''', f"On {REPEATED}, `dtable` is wrong in 2 of 8 entries.", EMBEDDING_BACKWARD.MISTAKES[0].hint),
    Wrong("embedding-backward", "the gradient as (d, V)", FORWARD + '''
def embedding_backward(dout, ids, table):
    return dout.reshape(-1, dout.shape[-1]).T @ np.eye(table.shape[0])[ids.ravel()]
''', f"On {REPEATED}, `dtable` has shape (2, 4) but should have shape (4, 2)."),
    Wrong("embedding-backward", "averaged over the occurrences", FORWARD + '''
def embedding_backward(dout, ids, table):
    dtable = np.zeros_like(table)
    np.add.at(dtable, ids, dout)
    counts = np.bincount(ids.ravel(), minlength=table.shape[0])
    return dtable / np.maximum(counts, 1)[:, None]
''', f"On {REPEATED}, `dtable` is wrong in 2 of 8 entries."),
    Wrong("embedding-backward", "the table zeroed to build the gradient", FORWARD + '''
def embedding_backward(dout, ids, table):
    table[:] = 0.0
    np.add.at(table, ids, dout)
    return table.copy()
''', changed(REPEATED, "embedding_backward", "table")),

    Correct("token-position", "loops over batch and position", '''
def embed_tokens(ids, tok_emb, pos_emb):
    B, T = ids.shape
    x = np.empty((B, T, tok_emb.shape[1]))
    for b in range(B):
        for t in range(T):
            x[b, t] = tok_emb[ids[b, t]] + pos_emb[t]
    return x
'''),
    Correct("token-position", "positions looked up with np.arange, as picoGPT does", '''
# after picoGPT's gpt2.py: wte[inputs] + wpe[range(len(inputs))], with a batch axis
def embed_tokens(ids, tok_emb, pos_emb):
    return tok_emb[ids] + pos_emb[np.arange(ids.shape[1])]
'''),
    Correct("token-position", "np.take and an explicit batch axis", '''
def embed_tokens(ids, tok_emb, pos_emb):
    return np.take(tok_emb, ids, axis=0) + pos_emb[None, :ids.shape[-1], :]
'''),
    Wrong("token-position", "positions cut to B instead of T", '''
def embed_tokens(ids, tok_emb, pos_emb):
    return tok_emb[ids] + pos_emb[:ids.shape[0]]
''', f"`embed_tokens` raised ValueError on {SEQUENCES}."),
    Wrong("token-position", "the position rows summed", '''
def embed_tokens(ids, tok_emb, pos_emb):
    return tok_emb[ids] + pos_emb[:ids.shape[1]].sum(axis=0)
''', f"On {SEQUENCES}, `x` is wrong in 12 of 12 entries."),
    Wrong("token-position", "float32", '''
def embed_tokens(ids, tok_emb, pos_emb):
    return (tok_emb[ids] + pos_emb[:ids.shape[1]]).astype(np.float32)
''', f"On {SEQUENCES}, `x` has dtype float32 but should have dtype float64."),
    Correct("bpe-merge", "minbpe's get_stats and merge", '''
# after Karpathy's minbpe (MIT), basic.py: get_stats counts consecutive pairs in a dict, max(stats, key=stats.get)
# picks the pair, merge replaces it left to right
def get_stats(ids, counts=None):
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts

def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids

def bpe_merge(ids, new_id):
    ids = [int(i) for i in ids]
    stats = get_stats(ids)
    pair = max(stats, key=stats.get)
    return np.array(pair), np.array(merge(ids, pair, new_id))
'''),
    Correct("bpe-merge", "collections.Counter and a skip flag", '''
from collections import Counter

def bpe_merge(ids, new_id):
    ids = ids.tolist()
    (pair, _), = Counter(zip(ids, ids[1:])).most_common(1)   # equal counts keep the order they were first met
    merged, skip = [], False
    for i, token in enumerate(ids):
        if skip:
            skip = False
            continue
        if tuple(ids[i:i + 2]) == pair:
            merged.append(new_id)
            skip = True
        else:
            merged.append(token)
    return np.array(pair), np.array(merged)
'''),
    Correct("bpe-merge", "pair codes counted by np.unique, ties to the first index", '''
def bpe_merge(ids, new_id):
    base = int(ids.max()) + 1
    codes = ids[:-1] * base + ids[1:]                      # one integer per adjacent pair
    values, first, counts = np.unique(codes, return_index=True, return_counts=True)
    best = np.flatnonzero(counts == counts.max())
    code = values[best[np.argmin(first[best])]]            # among the most frequent, the one met first
    pair = np.array([code // base, code % base])
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] * base + ids[i + 1] == code:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return pair, np.array(out)
'''),
    Wrong("bpe-merge", "np.unique's sorted order breaks the ties", '''
def bpe_merge(ids, new_id):
    pairs, counts = np.unique(np.stack([ids[:-1], ids[1:]], axis=1), axis=0, return_counts=True)
    pair = pairs[np.argmax(counts)]                        # the smallest of the most frequent pairs
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return pair, np.array(out)
''', "On three pairs tied, the one met first (1, 3) is neither the smallest nor the largest, `pair` is wrong in 2 of 2 "
         "entries."),
    # (1, 3), (3, 0), (0, 2) occur twice each: sorted, (0, 2) comes first, and both of its ids differ from (1, 3)
    Wrong("bpe-merge", "only the first occurrence replaced, as str.replace(..., 1)", '''
def bpe_merge(ids, new_id):
    counts = {}
    for a, b in zip(ids[:-1], ids[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    pair = max(counts, key=counts.get)
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            return np.array(pair), np.concatenate([ids[:i], [new_id], ids[i + 2:]])
''', "On \"the thee thou\" as ids (␣ 0, e 1, h 2, o 3, t 4, u 5): t h (4, 2) occurs 3 times, `merged` has shape (12,) "
         "but should have shape (10,)."),
    # t h occurs 3 times: replacing one of them removes one id, 13 - 1 = 12, where three replacements give 10
    Wrong("bpe-merge", "merged from the right", '''
def bpe_merge(ids, new_id):
    counts = {}
    for a, b in zip(ids[:-1], ids[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    pair = max(counts, key=counts.get)
    out, i = [], len(ids) - 1
    while i >= 0:
        if i >= 1 and (ids[i - 1], ids[i]) == pair:
            out.append(new_id)
            i -= 2
        else:
            out.append(ids[i])
            i -= 1
    return np.array(pair), np.array(out[::-1])
''', "On three equal ids (0, 0, 0): the pair twice, merged once from the left, `merged` is wrong in 2 of 2 entries."),
    # from the right, 0 0 0 becomes 0 new_id = (0, 1) instead of (1, 0): both entries differ
]
