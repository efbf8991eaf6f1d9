"""Layerwise's site build: one mkdocs plugin (``plugin.py``, options in ``options.py``) and the packages doing its work.

``crosslink`` ties equations to code and writes the source pages, ``mathrender`` typesets math with KaTeX,
``sitenav`` reads the page order from the nav, ``livewidgets`` pre-renders widgets and packages the engine for
Pyodide, ``practice`` renders exercises, ``notebooks`` writes a notebook per page, ``capstone`` the "Build your
GPT" page, ``newpage`` scaffolds a page; ``parts`` connects each to mkdocs' events.
"""
