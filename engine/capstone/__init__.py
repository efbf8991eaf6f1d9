"""Your GPT: the learner's own layers assembled into the engine's model, checked against it, and trained.

``layers`` maps each exercise's function to the engine function it replaces and where the model finds it
(``homes``; ``compositions`` converts the composite ones' arguments, ``rotary`` fits RoPE's, ``switches`` says which
ones a configuration calls), ``swap`` binds them for the length of a ``with``, ``check`` compares the assembly with
the engine on one batch, ``learner`` makes the functions from passed code and isolates them, ``session`` is what the
browser's practice worker calls, and ``reference`` computes the engine's own curves for the page at build time.
"""
from ..config import GPTConfig
from ..train import TrainSettings

CONFIG = GPTConfig()  # the model the page trains: the engine's default sizes (2 blocks, d = 32, T = 16)
# The configurations the page offers: GPTConfig's own switches (field names and values) over CONFIG, by name. The
# first is GPT-2's (CONFIG itself); "modern" turns every switch at once, the others one each.
PRESETS = {
    "gpt2": {},
    "modern": {"norm": "rmsnorm", "positions": "rope", "ffn": "swiglu", "kv_heads": 2},
    "rmsnorm": {"norm": "rmsnorm"},
    "rope": {"positions": "rope"},
    "swiglu": {"ffn": "swiglu"},
    "gqa": {"kv_heads": 2},
    "mqa": {"kv_heads": 1},
}
PRESET_LABELS = {  # short: the page's Configuration select is as wide as its longest
    "gpt2": "GPT-2",
    "modern": "Modern: RMSNorm, RoPE, SwiGLU, 2 KV heads",
    "rmsnorm": "GPT-2 with RMSNorm",
    "rope": "GPT-2 with RoPE",
    "swiglu": "GPT-2 with SwiGLU",
    "gqa": "GPT-2 with 2 KV heads (grouped-query)",
    "mqa": "GPT-2 with 1 KV head (multi-query)",
}
BATCH_SIZE = 8
EVAL_EVERY = 20  # steps between validation losses
EVAL_BATCHES = 2
SAMPLE_EVERY = 50  # steps between lines sampled from the model
SAMPLE = {"prompt": "Call me ", "tokens": 48, "temperature": 0.8, "top_k": 10}
# What the page offers (and has the engine's curves for); 1,000 steps is the longer run, a few minutes in a tab
CHOICES = {"steps": (100, 200, 1000), "lr": (3e-3, 1e-2), "seed": (0, 1)}
# Generate: the characters asked for and the settings offered, the first of each the default (0 turns top-k off,
# 1 keeps every id under top-p)
GENERATE = {"tokens": 200, "temperature": (0.8, 0.5, 1.0), "top_k": (10, 0), "top_p": (0.9, 1.0)}
DEFAULTS = {"steps": 200, "lr": 3e-3, "seed": 0}
# The settings offered with the other presets: every offered setting is one engine run at build time (reference),
# and all of CHOICES for each would add about 17 s of CPU per preset (measured; this adds about 1 s each)
OTHER_PRESET_CHOICES = {"steps": (100, 200), "lr": (DEFAULTS["lr"],), "seed": (DEFAULTS["seed"],)}
TOLERANCE = 1e-8  # the check's relative tolerance: the loss, every gradient, every output of a learner's call


def config(preset="gpt2"):
    """The model of the preset named ``preset`` (a key of PRESETS); another name is a ConfigError naming it."""
    from ..errors import ConfigError
    if preset not in PRESETS:
        raise ConfigError(f"Build your GPT: unknown configuration {preset!r}; the page offers "
                          f"{', '.join(PRESETS)}")
    return CONFIG.with_overrides(**PRESETS[preset])


def choices(preset="gpt2"):
    """{steps, lr, seed: the values offered} with ``preset``: CHOICES for GPT-2's model, fewer for the others."""
    return CHOICES if preset == "gpt2" else OTHER_PRESET_CHOICES


def settings(steps, lr, seed, preset="gpt2"):
    """The training settings of a run the page offers with ``preset``; a value outside its choices is a
    ConfigError."""
    from ..errors import ConfigError
    offered = choices(preset)
    for key, value in (("steps", steps), ("lr", lr), ("seed", seed)):
        if value not in offered[key]:
            with_preset = "" if preset == "gpt2" else f" with the {preset} configuration"
            raise ConfigError(f"Build your GPT: {key} must be one of {', '.join(map(str, offered[key]))}"
                              f"{with_preset}, got {value!r}")
    return TrainSettings(steps=steps, batch_size=BATCH_SIZE, lr=lr, warmup_steps=steps // 10, eval_every=EVAL_EVERY,
                         eval_batches=EVAL_BATCHES, seed=seed)


from . import reference  # noqa: E402 - after the names it reads; the page quotes its default run
