"""What the build's fence parts share (``parts/widgets.py``, ``practice.py``, ``inside.py``, ``capstone.py``): a fence's
attributes checked against the ones it allows, and a failure that stops the build naming the page."""
from pymdownx.superfences import SuperFencesException


def fail(page, message):
    """Stop the build naming the page; superfences swallows any other exception and renders plain code."""
    raise SuperFencesException(f"{page}: {message}")


def check_attributes(page, fence, inputs, required, allowed):
    """Fail on an attribute not in ``allowed`` or a missing ``required`` one, e.g. "widget fence: unknown attribute
    'kinds' (allowed: kind, id)"."""
    unknown = sorted(set(inputs) - set(allowed))
    if unknown or required not in inputs:
        problem = f"unknown attribute {unknown[0]!r}" if unknown else f'the attribute {required}="..." is missing'
        fail(page, f"{fence} fence: {problem} (allowed: {', '.join(allowed)})")


def register(config, name, format, validator):
    """Add the superfences fence ``name`` to mkdocs' config, replacing one a previous build (``mkdocs serve``) left."""
    custom = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    custom[:] = [fence for fence in custom if fence.get("name") != name]
    custom.append({"name": name, "class": name, "format": format, "validator": validator})
