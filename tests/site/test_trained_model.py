"""Provenance of the site's trained model: it is the default configuration trained with the default settings on the
shipped corpus by the engine as it is now, and training again gives the same checkpoint bit for bit."""
import hashlib
import io
import json
import shutil
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from engine.checkpoint import load_checkpoint
from engine.config import GPTConfig
from engine.data import CORPUS_PATH, load_corpus
from engine.train import TrainSettings, train

from layerwise_build.livewidgets import trained_model

REPO = Path(__file__).resolve().parents[2]

FOLDER = trained_model.ensure(REPO, "engine")


def test_the_cache_folder_is_named_by_the_current_sources():
    provenance = json.loads((FOLDER / trained_model.PROVENANCE).read_text())
    assert FOLDER.name == provenance["key"] == trained_model.model_key(REPO, "engine")
    assert provenance["corpus_sha256"] == hashlib.sha256(CORPUS_PATH.read_bytes()).hexdigest()
    assert provenance["settings"] == asdict(TrainSettings())
    assert provenance["config"] == GPTConfig(vocab_size=len(set(CORPUS_PATH.read_text(encoding="utf-8")))).to_dict()


def test_the_key_follows_the_training_code_and_not_the_rest(tmp_path):
    shutil.copytree(REPO / "engine" / "data", tmp_path / "engine" / "data")
    for path in (REPO / "engine").glob("*.py"):
        (tmp_path / "engine" / path.name).write_bytes(path.read_bytes())
    key = trained_model.model_key(tmp_path, "engine")
    assert key == trained_model.model_key(REPO, "engine")
    (tmp_path / "engine" / "generate.py").write_text("# generation does not train\n")
    assert trained_model.model_key(tmp_path, "engine") == key
    (tmp_path / "engine" / "optim.py").write_text((REPO / "engine" / "optim.py").read_text() + "\n# changed\n")
    assert trained_model.model_key(tmp_path, "engine") != key  # imported by train.py: the weights may change
    (tmp_path / "engine" / "data" / "moby-dick.txt").write_text("another corpus\n")
    assert trained_model.model_key(tmp_path, "engine") not in (key, trained_model.model_key(REPO, "engine"))


@pytest.fixture(scope="module")
def again():
    """The default run, trained once more here."""
    return train(GPTConfig(), load_corpus(), TrainSettings(), out=io.StringIO())


def test_training_again_gives_the_same_checkpoint_bit_for_bit(again):
    params, config, vocab, step = load_checkpoint(FOLDER / trained_model.CHECKPOINT)
    assert (config, vocab, step) == (again.config, again.vocab, TrainSettings().steps)
    assert sorted(params) == sorted(again.params)
    for name, array in params.items():
        assert array.dtype == again.params[name].dtype and np.array_equal(array, again.params[name]), name


def test_the_default_run_does_not_overfit_as_the_training_page_says(again):
    # "Its two curves fall together to the end ... the validation loss is still falling"
    val = [loss for _, loss in again.history["val_loss"]]
    assert len(val) >= 3 and val[-1] == min(val) and val[-1] < val[-2]
    losses = again.history["train_loss"]
    assert abs(val[-1] - np.mean(losses[-200:])) < 0.1  # the last 200 steps' mean training loss, beside it
