"""Where the model's code finds a function the capstone can replace: three kinds of place, each able to say what it
holds now (``current``) and which attribute assignments would put a new pair there (``values``).
"""
from typing import NamedTuple


class Names(NamedTuple):
    """The pair is found as two module attributes (``engine.model.layernorm_forward`` / ``_backward``)."""
    module: object
    forward: str
    backward: str | None = None

    def values(self, forward, backward):
        pairs = [(self.forward, forward)] + ([(self.backward, backward)] if self.backward else [])
        return [(self.module, name, value) for name, value in pairs]

    def current(self):
        return (getattr(self.module, self.forward), getattr(self.module, self.backward) if self.backward else None)


class Pair(NamedTuple):
    """The pair is one module attribute holding the tuple ``(forward, backward)`` (``engine.model.MLP``)."""
    module: object
    name: str

    def values(self, forward, backward):
        return [(self.module, self.name, (forward, backward))]

    def current(self):
        return getattr(self.module, self.name)


class Entry(NamedTuple):
    """The pair is one entry of a module-level table (``engine.activations.ACTIVATIONS["gelu"]``)."""
    module: object
    name: str
    key: str

    def values(self, forward, backward):
        return [(self.module, self.name, {**getattr(self.module, self.name), self.key: (forward, backward)})]

    def current(self):
        return getattr(self.module, self.name)[self.key]
