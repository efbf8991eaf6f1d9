"""The math, typeset to KaTeX HTML at build time, shows with KaTeX's vendored fonts on first load and after instant
navigation, and the pages request nothing from another origin. Drives Debian's Chromium (through katex_probe.py, in its own process)
over the session's strict build."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).resolve().parent / "katex_probe.py"


@pytest.mark.browser
def test_math_renders_after_load_and_after_instant_navigation(built_site):
    if not shutil.which("/usr/bin/chromium"):
        pytest.fail("/usr/bin/chromium is missing: `bash scripts/dev.sh test` installs Debian's chromium")
    result = subprocess.run([sys.executable, str(PROBE), str(built_site)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout)
    assert report["linear_equations_rendered"] >= 4 and report["linear_katex_errors"] == 0
    assert {"KaTeX_Main", "KaTeX_Math"} <= set(report["katex_fonts_loaded"]), report["katex_fonts_loaded"]
    assert report["instant"], "clicking a nav link reloaded the page: instant navigation is off"
    assert report["layernorm_equations_rendered"] >= 6 and report["layernorm_katex_errors"] == 0
    # the live engine's pinned Pyodide CDN is the widgets' business; nothing else may leave the origin
    assert [u for u in report["foreign_requests"] if "pyodide" not in u] == []
