"""Widget kind ``model``: a whole tiny GPT on one sequence, from ids to loss and back to every parameter's gradient.

The reader picks the sizes; the kind calls ``init_params``, ``forward``, the cross-entropy, ``backward``,
``clip_grad_norm`` and ``adamw_step`` from the engine and shows the residual stream after each block, the logits, the
gradients that reach the embedding tables, a central-difference probe of every parameter array, the skip-path
mistake, and what one clipped AdamW step does.
"""
import numpy as np

from .. import model, optim
from ..config import GPTConfig
from ..embedding import token_position_backward, token_position_forward
from ..errors import LayerwiseError
from ..linear import linear_backward
from ..loss import cross_entropy_backward, cross_entropy_forward
from ..norms import layernorm_backward, rmsnorm_backward
from .fmt import format_compact, format_number
from .kind import Block, Dim, Kind, Operand, Result, gradient_gap

LIMITS = {"vocab_size": (2, 8), "emb_dim": (1, 8), "num_heads": (1, 8), "ff_dim": (1, 16), "num_layers": (1, 3)}


def _size(name, value):
    low, high = LIMITS[name]
    if not low <= value <= high:
        raise LayerwiseError(f"model example: {name} must be a whole number from {low} to {high}, got {value}")
    return int(value)


def _flag(name, value, off, on):
    if value not in (0, 1):
        raise LayerwiseError(f"model example: {name} must be 0 ({off}) or 1 ({on}), got {value}")
    return on if value else off


def example_config(ids, vocab_size, emb_dim, num_heads, ff_dim, num_layers, post_ln, rmsnorm):
    """The GPTConfig of the example: the reader's sizes, and a context exactly as long as the ids."""
    sizes = {name: _size(name, value) for name, value in (("vocab_size", vocab_size), ("emb_dim", emb_dim),
                                                          ("num_heads", num_heads), ("ff_dim", ff_dim),
                                                          ("num_layers", num_layers))}
    return GPTConfig(seq_len=len(ids), placement=_flag("post_ln", post_ln, "pre", "post"),
                     norm=_flag("rmsnorm", rmsnorm, "layernorm", "rmsnorm"), **sizes)


def closed_form_terms(config):
    """The closed form of ``param_count`` as (arithmetic, value) terms, written out for the reader.

    The notes compare the total with ``param_count`` and ``count_params``, so a drift between the two is visible.
    """
    V, T, d, F, L = config.vocab_size, config.seq_len, config.emb_dim, config.ff_dim, config.num_layers
    norm = 2 * d if config.norm == "layernorm" else d
    norm_text = f"2·{d}" if config.norm == "layernorm" else f"{d}"
    terms = [(f"({V} + {T})·{d}", (V + T) * d),  # embeddings
             (f"{L}·(4·{d}² + 4·{d} + 2·{d}·{F} + {F} + {d} + 2·{norm_text})",  # blocks
              L * (4 * d * d + 4 * d + 2 * d * F + F + d + 2 * norm))]
    if config.placement == "pre":
        terms.append((norm_text, norm))  # final norm
    terms.append((f"{d}·{V} + {V}", d * V + V))  # head
    return terms


def _without_skip_gradient(dlogits, cache):
    """The classic slip in a pre-LN backward: assign each sub-layer's input gradient instead of adding the skip's.

    Built from the engine's own pieces: ``sublayer_backward`` returns skip + branch, and in a pre-LN block the skip
    part is exactly the incoming gradient, so the slip keeps ``returned - incoming``. Returns the wrong ``dtok_emb``.
    """
    norm_backward = layernorm_backward if cache["config"].norm == "layernorm" else rmsnorm_backward
    dx = linear_backward(dlogits, cache["head"])[0]  # (1, T, d)
    dx = norm_backward(dx, cache["lnf"])[0]
    for block_cache in reversed(cache["blocks"]):
        for part in ("mlp", "attn"):
            dx = model.sublayer_backward(dx, block_cache[part])[0] - dx
    return token_position_backward(dx, cache["emb"])[0]


def residual_stream(params, batch_ids, config):
    """The stream x0 (embeddings) and the output of every block, each (1, T, d), from the engine's block calls."""
    x, _ = token_position_forward(batch_ids, params["tok_emb"], params["pos_emb"])  # (1, T, d)
    streams = [x]
    for i in range(config.num_layers):
        x, _ = model.block_forward(x, params, i, config)
        streams.append(x)
    return streams


def compute(ids, targets, vocab_size, emb_dim, num_heads, ff_dim, num_layers, post_ln, rmsnorm, seed, max_norm, lr):
    config = example_config(ids, vocab_size, emb_dim, num_heads, ff_dim, num_layers, post_ln, rmsnorm)
    if seed < 0:
        raise LayerwiseError(f"model example: seed must be 0 or more, got {seed}")
    batch_ids, batch_targets = ids[None, :], targets[None, :]  # (1, T): a batch of one sequence
    params = model.init_params(config, int(seed))
    initial = {name: array.copy() for name, array in params.items()}

    streams = residual_stream(params, batch_ids, config)
    logits, cache = model.forward(params, batch_ids, config)  # (1, T, V)
    loss, ce_cache = cross_entropy_forward(logits, batch_targets)
    dlogits = cross_entropy_backward(1.0, ce_cache)  # (1, T, V)
    grads = model.backward(dlogits, cache)
    raw = {name: g.copy() for name, g in grads.items()}  # clipping below scales grads in place

    def loss_now():
        return model.evaluate_loss(params, batch_ids, batch_targets, config)

    def loss_at_start():  # reads `initial`, which the AdamW step below leaves as it was
        return model.evaluate_loss(initial, batch_ids, batch_targets, config)

    probes, expected = steepest_entries(initial, raw)

    def gap():  # deferred: a few dozen forwards, shown a moment after the outputs
        return gradient_gap(loss_at_start, probes, expected)
    notes = [_parameter_note(params, config), _repeated_id_note(ids, raw)]
    if config.placement == "pre":
        row = int(ids[0])  # one row of tok_emb: d probes keep the live update fast
        wrong = _without_skip_gradient(dlogits, cache)[row]
        wrong_gap = gradient_gap(loss_at_start, {"row": initial["tok_emb"][row]}, {"row": wrong})
        notes.append(f"Mistake: dropping the skip path's gradient in the backward (dx = branch instead of dx = "
                     f"skip + branch) gives a dtok_emb whose largest gap from central differences is "
                     f"{wrong_gap:.1e}, to compare with the engine's in the gradient check below.")
    notes.append(f"Loss at initialisation {format_number(loss)}; ln V = ln {config.vocab_size} = "
                 f"{format_number(np.log(config.vocab_size))}: a fresh model is unsure of every character.")

    norm = optim.clip_grad_norm(grads, max_norm)
    optim.adamw_step(params, grads, optim.adamw_init(params), lr)
    scale = "not clipped" if norm <= max_norm else f"every gradient is scaled by {format_number(max_norm / norm)}"
    notes.append(f"Global gradient norm {format_number(norm)}; with max_norm {format_compact(max_norm)}, {scale}. "
                 f"After one AdamW step with lr {format_compact(lr)} the loss on this sequence is "
                 f"{format_number(loss_now())} (it was {format_number(loss)}).")

    terms = closed_form_terms(config)
    arithmetic = ("Parameter count: " + " + ".join(text for text, _ in terms) + " = "
                  + " + ".join(str(v) for _, v in terms) + f" = {sum(v for _, v in terms)}")
    blocks = [Block("tok_emb", "tok_emb at initialisation", initial["tok_emb"], ("V", "d"), "step"),
              Block("pos_emb", "pos_emb at initialisation", initial["pos_emb"], ("T", "d"), "step"),
              Block("x0", "x0 = tok_emb[ids] + pos_emb[:T]", streams[0][0], ("T", "d"), "step")]
    blocks += [Block(f"x{i + 1}", f"stream after block {i}", x[0], ("T", "d"), "step")
               for i, x in enumerate(streams[1:])]
    blocks += [Block("logits", "logits", logits[0], ("T", "V")),
               Block("probs", "softmax(logits): each row sums to 1", ce_cache["probs"][0], ("T", "V")),
               Block("loss", "loss = mean over t of -log probs[t, targets[t]]", np.array(loss), ()),
               Block("dlogits", "dlogits = (probs - onehot(targets)) / T", dlogits[0], ("T", "V"), "backward"),
               Block("dpos_emb", "dpos_emb: row t is the stream's gradient at position t", raw["pos_emb"],
                     ("T", "d"), "backward"),
               Block("dtok_emb", "dtok_emb: each id's row adds up the gradients where it occurs", raw["tok_emb"],
                     ("V", "d"), "backward"),
               Block("tok_emb_after", "tok_emb after clipping and one AdamW step", params["tok_emb"], ("V", "d"),
                     "backward")]
    return Result(blocks=tuple(blocks), arithmetic=arithmetic, gradient_gap=gap, notes=tuple(notes))


def steepest_entries(params, grads):
    """For every parameter, a one-entry view of it at its largest |gradient|, and that gradient entry.

    A forward of even this tiny model costs about a millisecond, so probing every entry of every array would take
    seconds; one probe per array still catches a wrong backward for any parameter.
    """
    probes, expected = {}, {}
    for name, grad in grads.items():
        k = int(np.argmax(np.abs(grad)))
        probes[name] = params[name].reshape(-1)[k:k + 1]  # a view: nudging it nudges the parameter
        expected[name] = grad.reshape(-1)[k:k + 1]
    return probes, expected


def _repeated_id_note(ids, grads):
    """When an id repeats, its row of dtok_emb is the sum of the stream's gradients (rows of dpos_emb) where it occurs."""
    values, counts = np.unique(ids, return_counts=True)
    if counts.max() < 2:
        return "Every id occurs once, so each used row of dtok_emb equals one row of dpos_emb."
    v = int(values[np.argmax(counts)])
    where = [int(t) for t in np.flatnonzero(ids == v)]
    terms = " + ".join(format_compact(grads["pos_emb"][t, 0]) for t in where)
    # dpos_emb[t] sums the stream's gradient at t over the batch; with the one sequence here it is that gradient
    return (f"Id {v} occurs at positions {', '.join(f't{t}' for t in where)}, so dtok_emb[{v}] adds the stream's "
            f"gradients there; with one sequence those are rows of dpos_emb: column j0 is {terms} = "
            f"{format_number(grads['tok_emb'][v, 0])}.")


def _parameter_note(params, config):
    shapes = ", ".join(f"{name} {array.shape}" for name, array in params.items())
    return (f"Parameters ({len(params)} arrays): {shapes}. count_params adds up their sizes: "
            f"{model.count_params(params)}; the closed form param_count gives {model.param_count(config)}.")


KIND = Kind(
    name="model",
    title="The whole model on one sequence: forward, loss, backward, one update",
    description="Edit the ids, the targets or the sizes; post_ln 1 switches to post-LN, rmsnorm 1 to RMSNorm.",
    dims=(Dim("T", "t", 1, 8), Dim("d", "j", resizable=False), Dim("V", "v", resizable=False)),
    inputs=(
        Operand("ids", "input character ids, one sequence", ("T",), [0, 1, 2, 0], integer=True),
        Operand("targets", "target ids: the next character at each position", ("T",), [1, 2, 0, 1], integer=True),
        Operand("vocab_size", "V, vocabulary size (2 to 8)", (), 3, integer=True),
        Operand("emb_dim", "d, embedding width (1 to 8)", (), 4, integer=True),
        Operand("num_heads", "H, attention heads (must divide d)", (), 2, integer=True),
        Operand("ff_dim", "F, feed-forward width (1 to 16)", (), 8, integer=True),
        Operand("num_layers", "L, blocks (1 to 3)", (), 1, integer=True),
        Operand("post_ln", "0 = pre-LN (GPT-2), 1 = post-LN", (), 0, integer=True),
        Operand("rmsnorm", "0 = LayerNorm, 1 = RMSNorm", (), 0, integer=True),
        Operand("seed", "seed of init_params", (), 0, integer=True),
        Operand("max_norm", "clipping threshold for the global gradient norm", (), 1.0, bounds=(0.01, 100)),
        Operand("lr", "learning rate of the AdamW step", (), 0.01, bounds=(0.0001, 1)),
    ),
    compute=compute,
)
