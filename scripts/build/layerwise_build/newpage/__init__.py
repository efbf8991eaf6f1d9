"""`bash scripts/dev.sh new-page NAME "Title" --after PAGE`: the files of a new layer page, with marked places to fill.

`create` writes an engine module and its test, a widget kind and its test, one exercise, and the Markdown page with
every section of a layer page, and puts the page in mkdocs.yml's nav after PAGE (the home page's path and the
Practice page follow the nav by themselves). `places` finds what is left to fill; the strict build names each place.
"""
