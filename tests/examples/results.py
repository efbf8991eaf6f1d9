"""Reading a widget kind's result (the JSON contract of engine.examples.run) in the tests of tests/examples/."""
import numpy as np


def block(result, name):
    """The output block called ``name``; a missing one fails naming the blocks there are."""
    found = [b for b in result["blocks"] if b["name"] == name]
    assert found, f"no block {name!r}; blocks: {[b['name'] for b in result['blocks']]}"
    return found[0]


def raw_values(result, name):
    """The block's values as the JSON holds them: nested lists, ``None`` for a non-finite entry."""
    return block(result, name)["values"]


def values(result, name):
    """The block's values as a float array (``nan`` where the JSON holds ``None``)."""
    return np.array(raw_values(result, name), dtype=float)
