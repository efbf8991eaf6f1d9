"""Layerwise's engine: every layer of a small GPT written out in NumPy, forward and backward, nothing hidden.

Importing the package imports its modules, so ``engine.norms.layernorm_forward`` works after ``import engine``.
NumPy and the standard library are the only dependencies: the same code runs in CPython and in Pyodide.
"""
from . import (activations, attention, checkpoint, config, data, dropout, embedding, errors, generate, gradcheck,
               init, linear, loss, model, norms, optim, residual, softmax, train)

__all__ = ["activations", "attention", "checkpoint", "config", "data", "dropout", "embedding", "errors", "generate",
           "gradcheck", "init", "linear", "loss", "model", "norms", "optim", "residual", "softmax", "train"]
