"""Every layer and model page as a Jupyter notebook: its outline read from the page's Markdown (outline.py), then
its cells written with nbformat (notebook.py). The mkdocs glue is layerwise_build/parts/notebooks.py."""
