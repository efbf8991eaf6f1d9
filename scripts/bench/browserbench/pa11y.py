"""pa11y (HTML_CodeSniffer, WCAG 2 AA) from node_modules on Debian's chromium: the benchmark audits with it, and a
browser test runs it on every page of the nav (it finds what axe does not, e.g. a complex table without headers)."""
import json
import subprocess
from pathlib import Path

from . import chromium

BIN = Path(__file__).resolve().parents[3] / "node_modules" / ".bin"


def pa11y(url, config):
    """The errors pa11y reports for ``url`` (notices and warnings left out)."""
    done = subprocess.run([str(BIN / "pa11y"), "--config", str(config), "--reporter", "json", url],
                          capture_output=True, text=True)
    if done.returncode not in (0, 2):  # 2: issues were found
        raise RuntimeError(f"pa11y {url} failed: {(done.stderr or done.stdout).strip()[-800:]}")
    return [issue for issue in json.loads(done.stdout or "[]") if issue["type"] == "error"]


def pa11y_config(folder):
    """Write pa11y's configuration into ``folder``; returns its path."""
    path = Path(folder) / "pa11y.json"
    browser = {"executablePath": chromium.executable(), "args": ["--no-sandbox"]}
    path.write_text(json.dumps({"standard": "WCAG2AA", "runners": ["htmlcs"], "timeout": 120_000,
                                "chromeLaunchConfig": browser}))
    return path
