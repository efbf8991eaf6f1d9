"""Checkpoints: parameters, config and vocabulary in one ``.npz`` file, loaded back bit for bit.

No pickle anywhere (``allow_pickle=False``): a checkpoint is plain arrays, and the config and vocabulary travel as
JSON text, so any Unicode character in the vocabulary survives. Loading checks everything against the stored
config and raises ``CheckpointError`` saying what does not fit.
"""
import contextlib
import json
import math
import re
import zipfile

import numpy as np

from .config import GPTConfig
from .errors import CheckpointError, LayerwiseError
from .model import check_params, param_shapes
from .tokenizer import BpeTokenizer

FORMAT = "layerwise-checkpoint-1"
PARAM_PREFIX = "param/"


def save_checkpoint(path, params, config, vocab, step=0):
    """Write ``params`` (name -> array), ``config``, ``vocab`` (a list of characters, or the BpeTokenizer of a
    ``tokenizer="bpe:N"`` model: its merges) and the step to ``path``."""
    check_params(params, config, "save_checkpoint")
    if len(vocab) != config.vocab_size:
        raise CheckpointError(f"save_checkpoint: vocab has {len(vocab)} tokens but config.vocab_size is "
                              f"{config.vocab_size}")
    arrays = {PARAM_PREFIX + name: np.asarray(array) for name, array in params.items()}
    with open(path, "wb") as file:  # a file object stops np.savez from appending ".npz" to the name
        np.savez(file, format=np.array(FORMAT), step=np.array(int(step)),
                 config_json=np.array(json.dumps(config.to_dict())),
                 vocab_json=np.array(vocab.to_json() if isinstance(vocab, BpeTokenizer)
                                     else json.dumps(list(vocab), ensure_ascii=False)), **arrays)


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


MAX_TEXT_BYTES = 1 << 22  # the format, step, config and vocabulary: a few hundred bytes in a real checkpoint
MAX_JSON_DEPTH = 8  # a config is one flat object, a vocabulary one list
_JSON_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
HEADER_ROOM = 1 << 16  # bytes an .npy member may hold beyond its data (its header)
HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


def load_checkpoint(path):
    """Read a checkpoint written by ``save_checkpoint``; returns ``(params, config, vocab, step)``. Each member is
    read only once its header and its size in the archive fit what the stored config implies, so a tampered file
    is refused before anything large is inflated or allocated."""
    with _archive(path) as data:
        fmt = _member(data, "format", path, MAX_TEXT_BYTES) if "format" in data.files else None
        if fmt is None or fmt.shape != () or str(fmt) != FORMAT:
            found = "none" if fmt is None else str(fmt)
            raise CheckpointError(f"load_checkpoint: {path} has format {found!r}; expected {FORMAT!r}")
        stored = _json_field(data, "config_json", path)
        if not isinstance(stored, dict):
            raise CheckpointError(f"load_checkpoint: the config stored in {path} is invalid: config_json must be "
                                  f"a JSON object, got {type(stored).__name__}")
        try:
            config = GPTConfig.from_dict(stored)
            shapes = param_shapes(config)
        except LayerwiseError as error:
            raise CheckpointError(f"load_checkpoint: the config stored in {path} is invalid: {error}") from None
        vocab = _vocabulary(data, config, path)
        if len(vocab) != config.vocab_size:
            raise CheckpointError(f"load_checkpoint: {path} stores {len(vocab)} tokens but its config says "
                                  f"vocab_size {config.vocab_size}")
        step = _step(data, path)
        itemsize = np.dtype(config.dtype).itemsize
        # an unexpected name is only named (check_params refuses it), never read
        params = {key[len(PARAM_PREFIX):]: None for key in data.files if key.startswith(PARAM_PREFIX)}
        for name in params:
            if name in shapes:
                params[name] = _member(data, PARAM_PREFIX + name, path, math.prod(shapes[name]) * itemsize,
                                       shapes[name])
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
    return params, config, vocab, step


def _vocabulary(data, config, path):
    """The stored vocabulary: a list of single characters, or for ``tokenizer="bpe:N"`` the tokenizer its merges
    rebuild."""
    if config.tokenizer != "char":
        _json_field(data, "vocab_json", path)  # present and JSON, or named
        try:
            return BpeTokenizer.from_json(str(data["vocab_json"]))
        except LayerwiseError as error:
            raise CheckpointError(f"load_checkpoint: vocab_json in {path} holds no BPE merges: {error}") from None
    vocab = _json_field(data, "vocab_json", path)
    if not isinstance(vocab, list) or not all(isinstance(ch, str) and len(ch) == 1 for ch in vocab):
        raise CheckpointError(f"load_checkpoint: vocab_json in {path} must be a list of single characters")
    return vocab


@contextlib.contextmanager
def _archive(path):
    """The checkpoint's members (np.load's NpzFile), any reading error said as a CheckpointError."""
    try:
        # Open the file ourselves so it is closed even when NumPy gives up half-way through a damaged archive.
        with open(path, "rb") as file:
            if not zipfile.is_zipfile(file):
                raise CheckpointError(f"load_checkpoint: {path} is not an .npz archive, so not a Layerwise checkpoint")
            file.seek(0)
            with np.load(file, allow_pickle=False) as data:
                yield data
    except FileNotFoundError:
        raise CheckpointError(f"load_checkpoint: no checkpoint at {path}") from None
    except IsADirectoryError:
        raise CheckpointError(f"load_checkpoint: {path} is a directory, not a checkpoint") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise CheckpointError(f"load_checkpoint: {path} is corrupt or not a Layerwise checkpoint "
                              f"({type(error).__name__}: {error})") from None


def _member(data, key, path, max_bytes, shape_wanted=None):
    """The array stored as ``key``, read only if it is an .npy member whose declared data (header) and stored size
    are at most ``max_bytes``, and whose declared shape is ``shape_wanted`` when given (a parameter's)."""
    name = f"{key}.npy"
    if name not in data.zip.namelist():
        raise CheckpointError(f"load_checkpoint: {key} in {path} is not a NumPy array")
    info = data.zip.getinfo(name)
    with data.zip.open(info) as member:
        reader = HEADER_READERS.get(np.lib.format.read_magic(member))
        if reader is None:
            raise CheckpointError(f"load_checkpoint: {key} in {path} has an .npy version this loader does not read")
        shape, _, dtype = reader(member)
    if shape_wanted is not None and shape != shape_wanted:
        raise CheckpointError(f"load_checkpoint: parameter {key[len(PARAM_PREFIX):]} has shape {shape}; expected "
                              f"{shape_wanted} (in {path})")
    declared = math.prod(shape) * dtype.itemsize
    if declared > max_bytes or info.file_size > max_bytes + HEADER_ROOM:
        raise CheckpointError(f"load_checkpoint: {key} in {path} declares shape {shape} of {dtype} "
                              f"({max(declared, info.file_size):,} bytes); at most {max_bytes:,} fit the config")
    return data[key]


def _step(data, path):
    if "step" not in data.files:
        return 0
    step = _member(data, "step", path, MAX_TEXT_BYTES)
    if step.shape != () or step.dtype.kind not in "iu" or int(step) < 0:
        raise CheckpointError(f"load_checkpoint: step in {path} must be one integer of 0 or more, got {step!r}")
    return int(step)


def _json_field(data, key, path):
    if key not in data.files:
        raise CheckpointError(f"load_checkpoint: {path} has no {key}; it is not a Layerwise checkpoint")
    text = str(_member(data, key, path, MAX_TEXT_BYTES))
    # Refused before parsing: json's C parser recurses per bracket, and under WebAssembly a deep document overflows
    # the engine's stack before Python can raise RecursionError.
    if _nesting_depth(text) > MAX_JSON_DEPTH:
        raise CheckpointError(f"load_checkpoint: {key} in {path} is nested too deeply to be a config or a "
                              "vocabulary")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CheckpointError(f"load_checkpoint: {key} in {path} is not valid JSON ({error})") from None


def _nesting_depth(text):
    """The deepest bracket nesting of JSON ``text``, brackets inside strings not counted."""
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", _JSON_STRING.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest
