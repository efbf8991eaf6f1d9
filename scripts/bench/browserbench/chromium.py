"""Debian's chromium, as every browser benchmark launches it (the flags the tests use too)."""
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def executable():
    """The browser's path, or an exit that says how to install it (Playwright's own browsers cannot be downloaded
    here, and Lighthouse's launcher would fail with a stack trace)."""
    if not Path(CHROMIUM).is_file():
        raise SystemExit(f"{CHROMIUM} is missing: the browser benchmarks run Debian's chromium "
                         "(`bash scripts/dev.sh test` installs it, or `apt-get install chromium`)")
    return CHROMIUM
