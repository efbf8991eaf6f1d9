"""Checkpoints round-trip bit for bit (non-ASCII vocabulary included) and every broken file is named."""
import io
import json
import zipfile

import numpy as np
import pytest

from engine import model
from engine.checkpoint import load_checkpoint, save_checkpoint
from engine.config import GPTConfig
from engine.errors import CheckpointError

VOCAB = ["\n", " ", "a", "é", "ß", "—", "中", "😀"]
CONFIG = GPTConfig(vocab_size=len(VOCAB), seq_len=4, emb_dim=4, num_heads=2, ff_dim=8, num_layers=1)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_round_trip_is_bit_exact_with_a_non_ascii_vocabulary(tmp_path, dtype):
    config = CONFIG.with_overrides(dtype=dtype)
    params = model.init_params(config, seed=3)
    path = tmp_path / "model.ckpt"  # any name: np.savez must not append ".npz"
    save_checkpoint(path, params, config, VOCAB, step=42)
    loaded, loaded_config, vocab, step = load_checkpoint(path)
    assert (loaded_config, vocab, step) == (config, VOCAB, 42)
    assert loaded.keys() == params.keys()
    for name in params:
        assert loaded[name].dtype == params[name].dtype
        assert loaded[name].tobytes() == params[name].tobytes()


def write_npz(path, **arrays):
    with open(path, "wb") as file:
        np.savez(file, **arrays)


def valid_arrays(config=CONFIG, vocab=VOCAB):
    arrays = {"format": np.array("layerwise-checkpoint-1"), "step": np.array(0),
              "config_json": np.array(json.dumps(config.to_dict())),
              "vocab_json": np.array(json.dumps(vocab, ensure_ascii=False))}
    arrays.update({f"param/{name}": p for name, p in model.init_params(config).items()})
    return arrays


def test_the_hand_built_valid_file_loads(tmp_path):
    write_npz(tmp_path / "ok.npz", **valid_arrays())
    assert load_checkpoint(tmp_path / "ok.npz")[2] == VOCAB


def test_brackets_and_quotes_inside_the_vocabulary_are_not_nesting(tmp_path):
    vocab = ["[", "{", '"', "\\", "]", "}", "a", "b"]  # a depth guard that counted these would refuse the file
    write_npz(tmp_path / "brackets.npz", **valid_arrays(vocab=vocab))
    assert load_checkpoint(tmp_path / "brackets.npz")[2] == vocab


def test_missing_and_corrupt_files(tmp_path):
    with pytest.raises(CheckpointError, match=r"load_checkpoint: no checkpoint at .*absent.npz"):
        load_checkpoint(tmp_path / "absent.npz")
    (tmp_path / "noise.npz").write_bytes(b"this is not a zip archive at all")
    with pytest.raises(CheckpointError, match=r"load_checkpoint: .*noise.npz is corrupt or not a Layerwise checkpoint"):
        load_checkpoint(tmp_path / "noise.npz")
    save_checkpoint(tmp_path / "full.npz", model.init_params(CONFIG), CONFIG, VOCAB)
    raw = (tmp_path / "full.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(CheckpointError, match=r"cut.npz is corrupt or not a Layerwise checkpoint"):
        load_checkpoint(tmp_path / "cut.npz")


def test_pickled_objects_are_refused(tmp_path):
    arrays = valid_arrays()
    arrays["vocab_json"] = np.array([{"a": 1}], dtype=object)
    with open(tmp_path / "pickled.npz", "wb") as file:
        np.savez(file, **arrays)
    with pytest.raises(CheckpointError, match=r"pickled.npz is corrupt or not a Layerwise checkpoint .*allow_pickle"):
        load_checkpoint(tmp_path / "pickled.npz")


NESTED = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(format=np.array("other-format")),
     r"has format 'other-format'; expected 'layerwise-checkpoint-1'"),
    (lambda a: a.pop("config_json"), r"has no config_json; it is not a Layerwise checkpoint"),
    (lambda a: a.update(config_json=np.array("{not json")), r"config_json in .* is not valid JSON"),
    (lambda a: a.update(config_json=np.array(json.dumps({**CONFIG.to_dict(), "size": 3}))),
     r"the config stored in .* is invalid: GPTConfig: unknown key 'size'"),
    (lambda a: a.update(vocab_json=np.array(json.dumps(VOCAB[:-1]))),
     r"stores 7 tokens but its config says vocab_size 8"),
    (lambda a: a.update(vocab_json=np.array(json.dumps(["ab"] * 8))), r"must be a list of single characters"),
    (lambda a: a.update({"param/b0.wq": np.zeros((4, 5))}), r"parameter b0.wq has shape \(4, 5\); expected \(4, 4\)"),
    (lambda a: a.pop("param/head_w"), r"missing \['head_w'\]"),
    (lambda a: a.update({"param/extra": np.zeros(2)}), r"unexpected \['extra'\]"),
    (lambda a: a.update({"param/lnf_g": np.ones(4, dtype=np.float32)}), r"parameter lnf_g .* has dtype float32; "
                                                                       r"the config says float64"),
    (lambda a: a.update({"param/lnf_g": np.array([1.0, np.nan, 1.0, 1.0])}), r"lnf_g .* contains non-finite values"),
    # the review's F9: each of these gave a Python traceback instead of a CheckpointError
    (lambda a: a.update(config_json=np.array("5")), "config_json must be a JSON object, got int"),
    (lambda a: a.update(config_json=np.array("null")), "config_json must be a JSON object, got NoneType"),
    (lambda a: a.update(config_json=np.array("[]")), "config_json must be a JSON object, got list"),
    (lambda a: a.update(config_json=np.array(NESTED)), "config_json in .* is nested too deeply"),
    (lambda a: a.update(vocab_json=np.array(NESTED)), "vocab_json in .* is nested too deeply"),
    (lambda a: a.update(step=np.array("abc")), "step in .* must be one integer of 0 or more"),
    (lambda a: a.update(step=np.array([1, 2])), "step in .* must be one integer of 0 or more"),
    (lambda a: a.update(step=np.array(np.inf)), "step in .* must be one integer of 0 or more"),
    (lambda a: a.update(step=np.array(-3)), "step in .* must be one integer of 0 or more"),
    # a text member far larger than any config: refused from its header, before it is inflated
    (lambda a: a.update(vocab_json=np.array(" " * 2_000_000)), r"vocab_json in .* declares shape \(\) of <U2000000"),
])
def test_mismatched_contents_are_named(tmp_path, change, message):
    arrays = valid_arrays()
    change(arrays)
    write_npz(tmp_path / "bad.npz", **arrays)
    with pytest.raises(CheckpointError, match=message):
        load_checkpoint(tmp_path / "bad.npz")


def test_saving_checks_its_inputs(tmp_path):
    with pytest.raises(CheckpointError, match=r"save_checkpoint: vocab has 2 tokens but config.vocab_size is 8"):
        save_checkpoint(tmp_path / "x.npz", model.init_params(CONFIG), CONFIG, ["a", "b"])


def npy_header_only(shape):
    """The bytes of an .npy member whose header declares ``shape`` of float64 but which holds no data."""
    header = {"descr": "<f8", "fortran_order": False, "shape": shape}
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    return buffer.getvalue()  # the magic string, the version and the header


def rewrite_members(path, **changes):
    """Rewrite the .npz at ``path`` with members (full names in the archive) replaced, or removed where None."""
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    members.update(changes)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            if content is not None:
                archive.writestr(name, content)



def test_a_member_that_is_not_an_npy_array_or_declares_a_huge_shape_is_refused_unread(tmp_path):
    path = tmp_path / "bad.npz"
    write_npz(path, **valid_arrays())
    rewrite_members(path, **{"step.npy": None, "step": b"12"})  # a raw member, as np.load would hand it back
    with pytest.raises(CheckpointError, match="step in .* is not a NumPy array"):
        load_checkpoint(path)
    write_npz(path, **valid_arrays())
    rewrite_members(path, **{"param/tok_emb.npy": npy_header_only((100_000, 100_000))})  # 74.5 GiB if allocated
    with pytest.raises(CheckpointError, match=r"parameter tok_emb has shape \(100000, 100000\); expected"):
        load_checkpoint(path)


def test_a_plain_npy_file_is_not_taken_for_a_checkpoint(tmp_path):
    np.save(tmp_path / "plain.npy", np.zeros(3))
    with pytest.raises(CheckpointError, match="is not an .npz archive"):
        load_checkpoint(tmp_path / "plain.npy")
