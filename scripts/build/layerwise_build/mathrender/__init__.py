"""Math rendered at build time: the TeX that pymdownx.arithmatex leaves in ``.arithmatex`` elements becomes KaTeX's
HTML (with MathML for screen readers) before the page is written, so the reader's browser runs no math script:
formulas show with JavaScript off, never flash as raw TeX, and cost no main-thread time while the live engine loads.
"""
from .katex import KatexError, KatexRenderer, index_math, render_math

__all__ = ["KatexError", "KatexRenderer", "index_math", "render_math"]
