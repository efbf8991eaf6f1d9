"""Lighthouse and pa11y on the pages a reader opens first, as web engineers judge a site (needs PYODIDE_DIST).

  PYODIDE_DIST=/path .venv/bin/python scripts/bench/bench_lighthouse.py [--pages layernorm,attention] [--details]

Builds the strict site self-hosting PYODIDE_DIST, serves it as a static host does (browserbench/static_host.py:
gzip for text and wasm, max-age=600), then for Home, every layer page and every model page of the nav runs
Lighthouse 12 (node_modules, Debian's chromium) with its mobile preset and with --preset=desktop, and pa11y
(HTML_CodeSniffer, WCAG2AA). Prints one row per page: mobile performance, TBT, CLS, TTI, desktop performance and
CLS, accessibility, best practices and SEO (mobile run), pa11y errors, and in how many mobile runs the page's own
first paint came after 1 s (HELD_PAINT_MS). --details lists every audit that did not pass and every pa11y error.
Targets (issue 21): mobile perf >= 0.90, desktop >= 0.95, TBT <= 200 ms, CLS <= 0.02, the other scores 1.00, no
pa11y error. Scores move by a few hundredths between runs on a quiet machine and by tenths on a busy one
(Lighthouse multiplies the main thread's observed time by four) or when the first paint was held: compare rows
measured in one run of this script, against Home's, and use --runs 3 to report each page's median run (by
performance score).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browserbench import chromium  # noqa: E402
from browserbench.pa11y import pa11y, pa11y_config  # noqa: E402
from browserbench.static_host import start_static_host  # noqa: E402
from layerwise_build.livewidgets.sitebuild import build_site  # noqa: E402
from layerwise_build.sitenav import load_nav, nav_pages  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "node_modules" / ".bin"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SECTIONS = ("Layers", "The whole model")  # nav sections audited beside Home
COLUMNS = ("page", "mobile perf", "TBT", "CLS", "TTI", "desktop perf", "desktop CLS", "a11y", "best practices",
           "SEO", "pa11y errors", "held first paints")
# Headless Chromium sometimes draws a page's first frame a second or two late, the page's main thread idle (it
# happens with every script removed too): Lighthouse then simulates the first paint and LCP with all the work and
# downloads that came before it. Such a run is counted, so a table's scores can be read for what they are.
HELD_PAINT_MS = 1000


def audited_pages(config_path=ROOT / "mkdocs.yml"):
    """(title, site-relative URL) of Home and of every page in the audited nav sections, in nav order."""
    pages = [("Home", "")]
    for entry in load_nav(config_path):
        (title, target), = entry.items()
        if title in SECTIONS:
            pages += [(name, src.removesuffix(".md") + "/") for name, src in nav_pages(target)]
    return pages


def chosen(pages, names):
    """The pages whose title or URL contains one of the comma-separated ``names`` (case-insensitive)."""
    if not names:
        return pages
    wanted = [n.strip().lower() for n in names.split(",") if n.strip()]
    picked = [p for p in pages if any(w in p[0].lower() or w in p[1] for w in wanted)]
    missing = [w for w in wanted if not any(w in p[0].lower() or w in p[1] for p in pages)]
    if missing:
        sys.exit(f"--pages: no audited page matches {', '.join(missing)}; pages: "
                 + ", ".join(title for title, _ in pages))
    return picked


def lighthouse(url, desktop):
    command = [str(BIN / "lighthouse"), url, "--output=json", "--output-path=stdout", "--quiet",
               f"--only-categories={','.join(CATEGORIES)}", "--chrome-flags=--headless=new --no-sandbox"]
    if desktop:
        command.append("--preset=desktop")
    browser = {"CHROME_PATH": chromium.executable()}
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **browser})
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse {url} failed: {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout)


def score(report, category):
    value = report["categories"][category]["score"]
    return "n/a" if value is None else f"{value:.2f}"


def audit(report, name, unit):
    value = report["audits"][name].get("numericValue")
    if value is None:
        return "n/a"
    return f"{value:,.0f} ms" if unit == "ms" else f"{value / 1000:.1f} s" if unit == "s" else f"{value:.3f}"


def failed_audits(report):
    """'category: audit id (score)' for every scored audit below 1 outside performance."""
    lines = []
    for category in CATEGORIES[1:]:
        for ref in report["categories"][category]["auditRefs"]:
            result = report["audits"][ref["id"]]
            if ref.get("weight") and result.get("score") is not None and result["score"] < 1:
                items = result.get("details", {}).get("items", [])
                where = [str((item.get("node") or {}).get("selector", "")) for item in items[:3]]
                lines.append(f"{category}: {ref['id']} ({result['score']}) {'; '.join(w for w in where if w)}")
    return lines


def median_run(reports):
    """The report whose performance score is the median of ``reports`` (the lower middle one of an even count)."""
    ranked = sorted(reports, key=lambda report: report["categories"]["performance"]["score"] or 0)
    return ranked[(len(ranked) - 1) // 2]


def held_first_paints(reports):
    """How many of ``reports`` traced the page's own first paint after HELD_PAINT_MS (before the simulation)."""
    return sum(report["audits"]["metrics"]["details"]["items"][0]["observedFirstContentfulPaint"] > HELD_PAINT_MS
               for report in reports)


def row(title, mobile_runs, mobile, desktop, errors):
    """The table's row for one page: ``mobile`` is the median of ``mobile_runs``, which give the held paints."""
    held = held_first_paints(mobile_runs)
    return [title, score(mobile, "performance"), audit(mobile, "total-blocking-time", "ms"),
            audit(mobile, "cumulative-layout-shift", ""), audit(mobile, "interactive", "s"),
            score(desktop, "performance"), audit(desktop, "cumulative-layout-shift", ""),
            score(mobile, "accessibility"), score(mobile, "best-practices"), score(mobile, "seo"), str(len(errors)),
            f"{held}/{len(mobile_runs)}"]


def save_reports(folder, path, mobile, desktop):
    folder.mkdir(parents=True, exist_ok=True)
    stem = path.strip("/").replace("/", "-")
    for preset, report in (("mobile", mobile), ("desktop", desktop)):
        (folder / f"{stem}.{preset}.json").write_text(json.dumps(report))


def print_table(rows):
    print("| " + " | ".join(COLUMNS) + " |")
    print("| " + " | ".join("---" for _ in COLUMNS) + " |")
    for cells in rows:
        print("| " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", help="comma-separated parts of page titles or URLs (default: every audited page)")
    parser.add_argument("--details", action="store_true", help="list the audits that did not pass, and pa11y errors")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page and preset; the median is shown")
    parser.add_argument("--save", type=Path, help="a folder to write each page's median reports to (JSON, for the "
                        "Lighthouse viewer or a closer look at its main-thread audits)")
    args = parser.parse_args()
    dist = os.environ.get("PYODIDE_DIST")
    if not dist or not (Path(dist) / "pyodide.js").is_file():
        sys.exit("PYODIDE_DIST must name a Pyodide 0.29.5 folder with NumPy (see ../shared/README.md)")
    for tool in ("lighthouse", "pa11y"):
        if not (BIN / tool).exists():
            sys.exit(f"{BIN / tool} is missing: run `bash scripts/dev.sh test --co -q` (npm ci) first")
    if args.runs < 1:
        sys.exit(f"--runs must be at least 1, not {args.runs}")
    chromium.executable()  # before the build: said at once when it is missing
    pages = chosen(audited_pages(), args.pages)
    with tempfile.TemporaryDirectory(prefix="layerwise-lighthouse-") as folder:
        server = start_static_host(Path(folder) / "site")
        url = f"http://127.0.0.1:{server.server_port}/"
        build_site(ROOT / "mkdocs.yml", Path(folder) / "site", url, dist)
        config = pa11y_config(folder)
        rows, details = [], []
        for title, path in pages:
            print(f"auditing {title} ({url + path})", file=sys.stderr, flush=True)
            mobile_runs = [lighthouse(url + path, desktop=False) for _ in range(args.runs)]
            mobile = median_run(mobile_runs)
            desktop = median_run([lighthouse(url + path, desktop=True) for _ in range(args.runs)])
            errors = pa11y(url + path, config)
            rows.append(row(title, mobile_runs, mobile, desktop, errors))
            if args.save:
                save_reports(args.save, path or "home", mobile, desktop)
            details += [f"{title}: {line}" for line in failed_audits(mobile)]
            details += [f"{title}: pa11y {e['code']}: {e['selector']}" for e in errors]
        server.shutdown()
    print_table(rows)
    if args.details:
        print("\n".join(details) or "every audit passed")


if __name__ == "__main__":
    main()
