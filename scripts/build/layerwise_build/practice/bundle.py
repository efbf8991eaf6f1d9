"""Bundle browser code from node_modules with esbuild (the code editor, CodeMirror 6, and the LAB figure's sanitizer,
DOMPurify, as ES modules; the offline service worker, Workbox, as a classic script), cached by a hash of what goes in,
so `mkdocs serve` rebuilds reuse it and only an edit of the entry or of package-lock.json rebuilds. ``<entry>.js``
becomes ``<entry>.bundle.js`` unless named otherwise, with its licence notices beside it (``licences_path``)."""
import gzip
import hashlib
import json
import subprocess
from pathlib import Path


class BundleError(Exception):
    """esbuild is missing or failed; the message says what to do or what it printed."""


def bundle_key(entry, lockfile, fmt="esm"):
    digest = hashlib.sha256(fmt.encode() + b"\0")
    for path in (entry, lockfile):
        digest.update(Path(path).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def licences_path(bundle):
    """The licence notices of the packages inside ``bundle`` (``x.bundle.js`` or ``x.js``), shipped beside it as
    ``x.licenses.txt``."""
    return bundle.with_name(bundle.name.removesuffix(".js").removesuffix(".bundle") + ".licenses.txt")


def build_bundle(root, entry, cache_dir, name=None, fmt="esm"):
    """Path of the minified bundle ``name`` (``<entry>.bundle.js`` by default) of ``entry``, built now unless cached,
    in esbuild's format ``fmt`` (``esm``; ``iife`` for a classic script such as a service worker); its licence
    notices are beside it."""
    root = Path(root)
    name = name or f"{Path(entry).stem}.bundle.js"
    out = Path(cache_dir) / bundle_key(entry, root / "package-lock.json", fmt) / name
    if out.is_file():
        return out
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BundleError(f"esbuild is missing at {esbuild}: run `npm ci` (bash scripts/dev.sh serve does it)")
    partial = out.with_suffix(".partial.js")
    meta = out.with_suffix(".meta.json")
    partial.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([str(esbuild), str(entry), "--bundle", f"--format={fmt}", "--minify", "--target=es2020",
                           f"--outfile={partial}", f"--metafile={meta}", "--log-level=error"],
                          cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise BundleError(f"esbuild could not bundle {entry}: {done.stderr.strip() or done.stdout.strip()}")
    output, = json.loads(meta.read_text())["outputs"].values()
    used = [name for name, info in output["inputs"].items() if info["bytesInOutput"] > 0]  # tree-shaken ones are not
    licences_path(out).write_text(_licences(root, used, name), encoding="utf-8")
    partial.replace(out)  # only a complete bundle is ever found in the cache
    return out


def _licences(root, inputs, bundle_name):
    """The LICENSE text of every npm package that contributed a file to the bundle. esbuild names inputs relative
    to ``root`` after following symlinks, so a linked node_modules (pnpm, a shared install) gives paths such as
    ``../store/node_modules/@codemirror/state/dist/index.js``: a package is known by what follows its last
    ``node_modules``."""
    packages = {}  # name (`@codemirror/state`) -> its folder, as esbuild reached it
    for name in inputs:
        parts = Path(name).parts
        if "node_modules" in parts:
            at = len(parts) - parts[::-1].index("node_modules")
            end = at + (2 if parts[at].startswith("@") else 1)
            packages[Path(*parts[at:end]).as_posix()] = root / Path(*parts[:end])
    notices = []
    for package, folder in sorted(packages.items()):
        licence = next((p for p in sorted(folder.glob("LICEN[CS]E*")) if p.is_file()), None)
        text = licence.read_text(encoding="utf-8").strip() if licence else "(no licence file in the package)"
        notices.append(f"{package}\n\n{text}\n")
    return (f"The bundle {bundle_name} contains these npm packages:\n\n"
            + "\n\n".join(notices))


def sizes(path):
    """(raw bytes, gzip bytes) of a file, as a page would download it without and with compression."""
    data = Path(path).read_bytes()
    return len(data), len(gzip.compress(data, compresslevel=9))
