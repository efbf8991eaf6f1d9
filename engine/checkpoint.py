"""Checkpoints: parameters, config and vocabulary in one ``.npz`` file, loaded back bit for bit.

No pickle anywhere (``allow_pickle=False``): a checkpoint is plain arrays, and the config and vocabulary travel as
JSON text, so any Unicode character in the vocabulary survives. Loading checks everything against the stored
config and raises ``CheckpointError`` saying what does not fit.
"""
import json
import zipfile

import numpy as np

from .config import GPTConfig
from .errors import CheckpointError, LayerwiseError
from .model import check_params

FORMAT = "layerwise-checkpoint-1"
PARAM_PREFIX = "param/"


def save_checkpoint(path, params, config, vocab, step=0):
    """Write ``params`` (name -> array), ``config``, ``vocab`` (list of characters) and the step to ``path``."""
    check_params(params, config, "save_checkpoint")
    if len(vocab) != config.vocab_size:
        raise CheckpointError(f"save_checkpoint: vocab has {len(vocab)} characters but config.vocab_size is "
                              f"{config.vocab_size}")
    arrays = {PARAM_PREFIX + name: np.asarray(array) for name, array in params.items()}
    with open(path, "wb") as file:  # a file object stops np.savez from appending ".npz" to the name
        np.savez(file, format=np.array(FORMAT), step=np.array(int(step)),
                 config_json=np.array(json.dumps(config.to_dict())),
                 vocab_json=np.array(json.dumps(list(vocab), ensure_ascii=False)), **arrays)


def _read_arrays(path):
    try:
        # Open the file ourselves so it is closed even when NumPy gives up half-way through a damaged archive.
        with open(path, "rb") as file, np.load(file, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except FileNotFoundError:
        raise CheckpointError(f"load_checkpoint: no checkpoint at {path}") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise CheckpointError(f"load_checkpoint: {path} is corrupt or not a Layerwise checkpoint "
                              f"({type(error).__name__}: {error})") from None


def _json_field(arrays, key, path):
    if key not in arrays:
        raise CheckpointError(f"load_checkpoint: {path} has no {key}; it is not a Layerwise checkpoint")
    try:
        return json.loads(str(arrays[key]))
    except json.JSONDecodeError as error:
        raise CheckpointError(f"load_checkpoint: {key} in {path} is not valid JSON ({error})") from None


def load_checkpoint(path):
    """Read a checkpoint written by ``save_checkpoint``; returns ``(params, config, vocab, step)``."""
    arrays = _read_arrays(path)
    if "format" not in arrays or str(arrays["format"]) != FORMAT:
        found = str(arrays["format"]) if "format" in arrays else "none"
        raise CheckpointError(f"load_checkpoint: {path} has format {found!r}; expected {FORMAT!r}")
    try:
        config = GPTConfig.from_dict(_json_field(arrays, "config_json", path))
    except LayerwiseError as error:
        raise CheckpointError(f"load_checkpoint: the config stored in {path} is invalid: {error}") from None
    vocab = _json_field(arrays, "vocab_json", path)
    if not isinstance(vocab, list) or not all(isinstance(ch, str) and len(ch) == 1 for ch in vocab):
        raise CheckpointError(f"load_checkpoint: vocab_json in {path} must be a list of single characters")
    if len(vocab) != config.vocab_size:
        raise CheckpointError(f"load_checkpoint: {path} stores {len(vocab)} characters but its config says "
                              f"vocab_size {config.vocab_size}")
    params = {key[len(PARAM_PREFIX):]: array for key, array in arrays.items() if key.startswith(PARAM_PREFIX)}
    try:
        check_params(params, config, "load_checkpoint")
    except LayerwiseError as error:
        raise CheckpointError(f"{error} (in {path})") from None
    for name, array in params.items():
        if array.dtype != np.dtype(config.dtype):
            raise CheckpointError(f"load_checkpoint: parameter {name} in {path} has dtype {array.dtype}; "
                                  f"the config says {config.dtype}")
        if not np.isfinite(array).all():
            raise CheckpointError(f"load_checkpoint: parameter {name} in {path} contains non-finite values")
    return params, config, vocab, int(arrays["step"]) if "step" in arrays else 0
