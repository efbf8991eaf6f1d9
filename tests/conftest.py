"""Puts tests/ on the import path (pytest's default prepend mode adds a conftest's folder), so that helpers shared
by several test folders (wcag.py) are importable from each."""
