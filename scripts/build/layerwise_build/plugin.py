"""Layerwise's site build as one mkdocs plugin, ``layerwise`` (the entry point in scripts/build/pyproject.toml).

Each part in ``parts/`` handles some of mkdocs' events; the plugin runs the parts its options switch on, for every
event in this order, because later parts use what earlier ones made: the cross-linker (``site``, always) first, then
the widgets, whose engine wheel, worker and engine-config.js practice, the notebooks and "Inside" use; "Build your
GPT" (``capstone``) runs in practice's worker and after it; ``offline`` lists every file the others wrote, so it
runs last.
"""
from pathlib import Path

from mkdocs.config.base import ValidationError
from mkdocs.plugins import BasePlugin

from .options import LayerwiseOptions
from .parts import capstone, inside, notebooks, offline, practice, site, widgets


class LayerwisePlugin(BasePlugin[LayerwiseOptions]):
    def load_config(self, options, config_file_path=None):
        errors, warnings = super().load_config(options, config_file_path)
        if not errors:
            errors += [(option, ValidationError(message)) for option, message in self.config.problems()]
        return errors, warnings

    def _parts(self):
        options = self.config
        switched = [(site, True), (widgets, options.widgets is not None), (practice, options.practice is not None),
                    (notebooks, bool(options.notebooks)), (inside, options.inside is not None),
                    (capstone, options.capstone is not None), (offline, options.offline)]
        return [part for part, on in switched if on]

    def _run(self, event, value, **kwargs):
        """mkdocs' own rule for a chain of handlers: each gets what the one before returned, unless that was None."""
        for part in self._parts():
            handler = getattr(part, event, None)
            if handler is not None:
                result = handler(value, **kwargs)
                value = value if result is None else result
        return value

    def on_startup(self, *, command, dirty):
        """`mkdocs serve` or a build: the offline part keeps nothing while an author edits."""
        for part in self._parts():
            if hasattr(part, "on_startup"):
                part.on_startup(command)

    def on_config(self, config):
        root = Path(config.config_file_path).resolve().parent
        for part in self._parts():
            config = part.on_config(config, self.config, root) or config
        return config

    def on_files(self, files, config):
        return self._run("on_files", files, config=config)

    def on_page_markdown(self, markdown, page, config, files):
        return self._run("on_page_markdown", markdown, page=page, config=config, files=files)

    def on_page_content(self, html, page, config, files):
        return self._run("on_page_content", html, page=page, config=config, files=files)

    def on_post_page(self, output, page, config):
        return self._run("on_post_page", output, page=page, config=config)

    def on_post_template(self, output_content, template_name, config):
        return self._run("on_post_template", output_content, template_name=template_name, config=config)

    def on_post_build(self, config):
        for part in self._parts():
            if hasattr(part, "on_post_build"):
                part.on_post_build(config)

    def on_serve(self, server, config, builder):
        return self._run("on_serve", server, config=config, builder=builder)

    def on_shutdown(self):
        for part in self._parts():
            if hasattr(part, "on_shutdown"):
                part.on_shutdown()
