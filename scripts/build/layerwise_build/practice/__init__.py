"""Practice at build time: the ``exercise`` and ``practice-index`` fences, and the code editor's bundle.

Connected to mkdocs by ``layerwise_build/parts/practice.py``; the browser half lives in ``widgets/practice/``.
"""
