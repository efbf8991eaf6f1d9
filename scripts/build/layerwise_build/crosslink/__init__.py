"""The cross-linker: ties each equation in docs/ to the lines of engine/ that compute it.

Collect first (`codeindex`: an index of functions, lines and calls built from Python's `ast`; `equations`: each
page's equation fences resolved against it), then render (`render`, `source_pages`, `shapes`, `values`).
`layerwise_build/parts/site.py` wires both halves into mkdocs; the tests drive them directly on a fixture package.
"""
