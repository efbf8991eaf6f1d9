"""The trained model the site ships: the default GPTConfig trained by the engine (the plugin's ``package``: its
``train``, ``config``, ``data`` and ``checkpoint`` modules) on the shipped corpus with the default TrainSettings,
made at build time and kept in ``.cache/layerwise-model/<key>/`` by a hash of the package's training modules and
its data, so ``mkdocs serve`` and every build after the first reuse it (training costs ~20-40 s).

Training is deterministic (seeded, one process, NumPy only): the same sources give the same checkpoint bit for bit
on one machine, which ``tests/site/test_trained_model.py`` checks by training again. Another CPU's BLAS may round
differently, so the checkpoint is not committed: each machine makes its own from the same sources.
"""
import ast
import hashlib
import importlib
import io
import json
import os
from pathlib import Path

CACHE = Path(".cache") / "layerwise-model"  # under the project's root
CHECKPOINT = "model.npz"
PROVENANCE = "provenance.json"


def training_modules(engine):
    """``engine/train.py`` and every engine module it imports, directly or not (relative imports, read with ast)."""
    seen, todo = set(), ["train"]
    while todo:
        name = todo.pop()
        if name in seen or not (engine / f"{name}.py").is_file():
            continue
        seen.add(name)
        for node in ast.walk(ast.parse((engine / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                todo += [node.module] if node.module else [alias.name for alias in node.names]
    return sorted(engine / f"{name}.py" for name in seen)


def model_key(root, package):
    """A hash of what the trained weights depend on: the training loop and every module it imports (the layers,
    the model, the optimiser, the defaults), and the data folder of the package folder ``package`` (``engine``);
    editing generation or a widget kind does not retrain."""
    engine = Path(root) / package
    digest = hashlib.sha256()
    for path in [*training_modules(engine), *sorted((engine / "data").iterdir())]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def ensure(root, package, cache_root=None, log=print):
    """The folder holding the trained checkpoint and its provenance for the sources of the package folder
    ``package`` of the project at ``root``, training first if it is missing (kept in ``cache_root``, by default
    ``root/.cache/layerwise-model``)."""
    key = model_key(root, package)
    folder = Path(cache_root or Path(root) / CACHE) / key
    if (folder / CHECKPOINT).is_file() and (folder / PROVENANCE).is_file():
        return folder
    checkpoint, config, data, training = (importlib.import_module(f"{Path(package).name}.{module}")
                                          for module in ("checkpoint", "config", "data", "train"))
    settings = training.TrainSettings()
    log(f"training the site's model: {settings.steps} steps of the default configuration (once per engine change)")
    result = training.train(config.GPTConfig(), data.load_corpus(), settings, out=io.StringIO())
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / (CHECKPOINT + ".partial")  # a stopped build leaves no half-written checkpoint behind
    checkpoint.save_checkpoint(partial, result.params, result.config, result.vocab, settings.steps)
    os.replace(partial, folder / CHECKPOINT)
    provenance = {"key": key, "config": result.config.to_dict(), "settings": settings.__dict__,
                  "corpus_sha256": hashlib.sha256(data.CORPUS_PATH.read_bytes()).hexdigest(),
                  "final_train_loss": result.history["train_loss"][-1]}
    (folder / PROVENANCE).write_text(json.dumps(provenance, indent=1) + "\n")
    return folder
