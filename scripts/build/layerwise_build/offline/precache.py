"""What the site's service worker keeps: every file of the built site that a page may ask for, each with a revision
(a hash of its bytes) so that a new build re-downloads only what changed; the runtime's files on the CDN when
Pyodide is not self-hosted; and the build's key, a hash of that whole list, which names the build in its sw.js.

Left out: the worker itself, source maps, the compressed sitemap (for crawlers; the theme reads sitemap.xml to
follow links in place, so that is kept), and the source pages of the tests (12 of the
site's ~50 MB; the package's own source pages, which every page links line by line, are kept).
"""
import hashlib
import json
from pathlib import Path
from urllib.parse import urljoin

from ..livewidgets import pyodide_dist

WORKER = "sw.js"
LEFT_OUT_NAMES = (WORKER, "sitemap.xml.gz")
LEFT_OUT_SUFFIXES = (".map",)


def site_entries(site_dir, left_out_folders=()):
    """[{url, revision, size}] of every file of ``site_dir`` but those left out, by site-relative URL."""
    site_dir = Path(site_dir)
    entries = []
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        url = path.relative_to(site_dir).as_posix()
        if (path.name in LEFT_OUT_NAMES or path.suffix in LEFT_OUT_SUFFIXES
                or any(url.startswith(folder) for folder in left_out_folders)):
            continue
        data = path.read_bytes()
        entries.append({"url": url, "revision": hashlib.sha256(data).hexdigest()[:20], "size": len(data)})
    return entries


def cdn_entries(cdn_url, site_lock, packages):
    """[{url, revision: None}] of what a worker fetches from the CDN: the runtime's core and the wheels of
    ``packages``' dependencies that the site's lock file (``site_lock``, its path) names by absolute URL. The URLs
    carry the pinned version, so they are their own revision; their size is not known here."""
    lock = json.loads(Path(site_lock).read_text())["packages"]
    wheels = [lock[name]["file_name"] for name in pyodide_dist.with_dependencies(lock, packages)]
    urls = [urljoin(cdn_url, name) for name in pyodide_dist.RUNTIME] + [w for w in wheels if "://" in w]
    return [{"url": url, "revision": None} for url in urls]


def build_key(entries):
    """16 hex digits that change with any entry's URL or revision."""
    digest = hashlib.sha256()
    for entry in entries:
        digest.update(f"{entry['url']} {entry['revision']}\n".encode())
    return digest.hexdigest()[:16]


def worker_script(entries, snapshot, unchanging, bundle):
    """sw.js: the build's list (sizes dropped: the worker does not need them) before the bundled worker; the
    entries under the folders or names ``unchanging`` never change under their URL, so the worker may take them from
    the HTTP cache."""
    offline = {"build": build_key(entries), "snapshot": snapshot,
               "precache": [{"url": e["url"], "revision": e["revision"]} for e in entries],
               "reusable": [e["url"] for e in entries if e["url"].startswith(tuple(unchanging))]}
    return f"self.LAYERWISE_OFFLINE = {json.dumps(offline, separators=(',', ':'))};\n{bundle}"
