"""Build-time half of the live widgets: pre-render ``widget`` fences, ship the engine as a wheel, locate Pyodide.

`parts/widgets.py` wires these into mkdocs; `widgets/` holds the browser half that takes over the markup.
"""
