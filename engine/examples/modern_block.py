"""Widget kind ``modern_block``: the reader switches rotary positions, SwiGLU, shared key/value heads and RMSNorm
on or off, and the tiny model trains in the tab beside GPT-2's block with the same seed and steps."""
import numpy as np

from .. import modern_block
from ..swiglu import matched_width
from .fmt import format_number
from .kind import Block, Dim, Kind, Operand, Result
from .svg import line_chart

MAX_STEPS = 120
COLUMNS = "parameters, KV-cache numbers per token, multiply-adds per generated token"


def switches(rope, swiglu, kv_heads, rmsnorm):
    """The config fields the four inputs set (0 or 1 for on/off; ``kv_heads`` 1 or 2 of the 2 query heads)."""
    chosen = {"kv_heads": int(kv_heads)}
    if rope:
        chosen["positions"] = "rope"
    if swiglu:
        chosen.update(ffn="swiglu", ff_dim=matched_width(modern_block.BASE.ff_dim))
    if rmsnorm:
        chosen["norm"] = "rmsnorm"
    return chosen


def compute(rope, swiglu, kv_heads, rmsnorm, steps, seed):
    steps, seed = int(steps), int(seed)
    config = modern_block.variant(switches(rope, swiglu, kv_heads, rmsnorm))
    gpt2 = modern_block.variant({})
    mine, theirs = modern_block.row(config, steps, seed), modern_block.row(gpt2, steps, seed)
    curve, baseline = modern_block.trained(config, steps, seed)[0], modern_block.trained(gpt2, steps, seed)[0]
    step_numbers = np.arange(1, steps + 1)
    plot = line_chart([("your block", step_numbers, curve), ("GPT-2's block", step_numbers, baseline)],
                      x_label="step", y_label="training-batch loss")
    names = [f"positions={config.positions}", f"ffn={config.ffn} (F = {config.ff_dim})",
             f"kv_heads={config.num_kv_heads} of {config.num_heads}", f"norm={config.norm}"]
    return Result(
        blocks=(Block("yours", f"your block: {COLUMNS}", np.array(mine[:3]), ("c",)),
                Block("gpt2", f"GPT-2's block: {COLUMNS}", np.array(theirs[:3]), ("c",)),
                Block("val_loss", "validation loss per character: yours, GPT-2's", np.array([mine[3], theirs[3]]),
                      ("m",))),
        arithmetic=f"Your block: {', '.join(names)}; validation loss {format_number(mine[3])} against GPT-2's "
                   f"{format_number(theirs[3])} after {steps} steps.",
        notes=(f"Both train {steps} steps from seed {seed} on the same batches; only the switches differ.",
               "Differences this small after a short run are within what another seed moves: try a few."),
        plots=(("Training-batch loss, your block against GPT-2's", plot),),
    )


KIND = Kind(
    name="modern_block",
    title="Flip the modern switches and train",
    description="1 turns a switch on, 0 off; kv_heads is 2 (multi-head, as GPT-2) or 1 (multi-query).",
    dims=(Dim("c", "column ", 3, 3, resizable=False), Dim("m", "model ", 2, 2, resizable=False)),
    inputs=(
        Operand("rope", "rotary positions (1) or a learned table (0)", (), 1, integer=True, bounds=(0, 1)),
        Operand("swiglu", "SwiGLU at 2/3 width (1) or the GELU MLP (0)", (), 1, integer=True, bounds=(0, 1)),
        Operand("kv_heads", "key/value heads for the 2 query heads", (), 1, integer=True, bounds=(1, 2)),
        Operand("rmsnorm", "RMSNorm (1) or LayerNorm (0)", (), 1, integer=True, bounds=(0, 1)),
        Operand("steps", f"training steps (1 to {MAX_STEPS})", (), 60, integer=True, bounds=(1, MAX_STEPS)),
        Operand("seed", "seed of the weights and the batches", (), 0, integer=True, bounds=(0, 10**6)),
    ),
    compute=compute,
)
