"""On a 375 px phone no page of the built site is wider than the screen: wide equations, tables and code scroll
inside their own boxes and long names wrap. Every page is opened in one Chromium page (overflow_probe.py, in its
own process like katex_probe.py) over the session's strict build."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).resolve().parent / "overflow_probe.py"
PHONE = 375


@pytest.mark.browser
def test_no_page_is_wider_than_a_phone(built_site):
    if not shutil.which("/usr/bin/chromium"):
        pytest.fail("/usr/bin/chromium is missing: `bash scripts/dev.sh test` installs Debian's chromium")
    result = subprocess.run([sys.executable, str(PROBE), str(built_site), str(PHONE)], capture_output=True, text=True,
                            timeout=600, cwd=PROBE.parent)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout)
    assert len(report) == len(list(built_site.rglob("*.html")))  # every page was measured
    too_wide = [f"{url}: document {r['scrollWidth']} px wide; widest: {r['culprit']}"
                for url, r in report.items() if r["scrollWidth"] > PHONE + 1]
    assert too_wide == [], "\n".join(too_wide)
