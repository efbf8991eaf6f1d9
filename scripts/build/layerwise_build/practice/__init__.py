"""Practice at build time: the ``exercise`` and ``practice-index`` fences, and the code editor's bundle.

Connected to mkdocs by ``scripts/practice_hook.py``; the browser half lives in ``widgets/practice/``.
"""
