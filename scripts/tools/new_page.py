"""Create a new layer page with marked places to fill: `bash scripts/dev.sh new-page NAME "Title" --after PAGE`.

Then `mkdocs build --strict` lists every place still to fill (file, line, what to write) until none is left.
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "build"))

from layerwise_build.newpage.create import ScaffoldError, create  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="module name of the layer, e.g. swiglu (engine/swiglu.py, docs/layers/swiglu.md)")
    parser.add_argument("title", help='the page title and nav entry, e.g. "SwiGLU"')
    parser.add_argument("--after", required=True, help="the nav page it follows, e.g. layers/activations.md")
    parser.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)  # the tests' temporary copies
    args = parser.parse_args(argv)
    try:
        written = create(args.root, args.name, args.title, args.after)
    except ScaffoldError as error:
        parser.exit(2, f"new-page: {error}\n")
    print("Written (each holds places marked FILL-IN ... END FILL-IN):")
    print("\n".join(f"  {path}" for path in written))
    print("Next: fill the places; `mkdocs build --strict` names every one still left.")


if __name__ == "__main__":
    main()
