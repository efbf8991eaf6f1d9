"""The plugin's parts, one module per feature of the build, each a set of mkdocs event handlers (``on_config`` also
gets the plugin's options and the project's root). ``plugin.py`` runs them in their fixed order."""
