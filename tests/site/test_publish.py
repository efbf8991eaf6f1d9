"""Publishing a copy: ``site_url`` comes from ``SITE_URL`` (mkdocs.yml), and a site built for another address names
that address wherever one is written (canonical links, the sitemap, the notebooks' install cell) while instant
navigation stays on; the Pages workflow runs the README's commands. The notebooks themselves are executed in
test_notebooks.py."""
import json
import re
import shlex
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import yaml
from crosslink_harness import PUBLISHED_URL

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
LOCAL_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default, where `bash scripts/dev.sh serve` serves
NOTEBOOK_PAGES = sorted(p.relative_to(DOCS).as_posix() for folder in ("layers", "model") for p in (DOCS / folder).glob("*.md"))
CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)">')
THEME_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)
NOTEBOOK_LINK = re.compile(r'<a href="([^"]+\.ipynb)" download="[^"]+">Download this page as a notebook</a>')


def page_html(site, src):
    return (site / src.removesuffix(".md").removesuffix("index") / "index.html").read_text(encoding="utf-8")


def sitemap_urls(site):
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    return [loc.text for loc in ElementTree.parse(site / "sitemap.xml").getroot().findall("s:url/s:loc", namespace)]


def test_the_default_site_url_is_the_local_server(built_site):
    urls = sitemap_urls(built_site)
    assert LOCAL_URL in urls and all(url.startswith(LOCAL_URL) for url in urls)
    assert CANONICAL.findall(page_html(built_site, "layers/layernorm.md")) == [LOCAL_URL + "layers/layernorm/"]


def test_canonical_links_and_the_sitemap_name_the_published_url(published_site):
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if p.parent.name != "snippets")
    for src in pages:
        url = PUBLISHED_URL + ("" if src == "index.md" else src.removesuffix(".md") + "/")
        assert CANONICAL.findall(page_html(published_site, src)) == [url], src
    urls = sitemap_urls(published_site)
    assert all(url.startswith(PUBLISHED_URL) for url in urls)
    assert {PUBLISHED_URL + src.removesuffix(".md") + "/" for src in NOTEBOOK_PAGES} <= set(urls)


def test_instant_navigation_stays_on_under_the_published_url(published_site):
    for src in ("index.md", "layers/layernorm.md", "model/training.md"):
        config = json.loads(THEME_CONFIG.search(page_html(published_site, src)).group(1))
        assert "navigation.instant" in config["features"], src


def test_every_layer_and_model_page_links_its_notebook_in_its_html(published_site):
    """Rendered by the build above the title (no script adds it), pointing at a notebook of the built site whose
    install cell names the published URL."""
    assert len(NOTEBOOK_PAGES) >= 14
    wheels = sorted(p.name for p in (published_site / "wheels").iterdir())
    assert wheels == ["layerwise-0.1.0-py3-none-any.whl"]
    for src in NOTEBOOK_PAGES:
        html = page_html(published_site, src)
        links = NOTEBOOK_LINK.findall(html)
        assert links == [f"../../notebooks/{src.removesuffix('.md')}.ipynb"], src
        assert html.index("Download this page as a notebook") < html.index("<h1"), src
        notebook = json.loads((published_site / "notebooks" / f"{src.removesuffix('.md')}.ipynb").read_text())
        first_code = next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")
        assert "".join(first_code["source"]) == f"%pip install {PUBLISHED_URL}wheels/{wheels[0]}", src
    assert not NOTEBOOK_LINK.search(page_html(published_site, "index.md"))


def _readme_commands():
    """(variables set, command) of each line of the README's "Publish your copy" commands."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Publish your copy", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    commands = []
    for line in filter(None, (line.partition("#")[0].strip() for line in block.splitlines())):
        words = shlex.split(line)
        variables = {w.partition("=")[0] for w in words if re.match(r"^[A-Z_]+=", w)}
        commands.append((variables, " ".join(w for w in words if not re.match(r"^[A-Z_]+=", w))))
    return commands


def test_the_pages_workflow_runs_the_readmes_commands_and_deploys_what_they_build():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    steps = build["steps"]
    runs = {step["run"].strip(): step for step in steps if "run" in step}
    uses = [step["uses"].partition("@")[0] for step in steps if "uses" in step]
    commands = _readme_commands()
    assert [command for _, command in commands] == ["bash scripts/dev.sh test", "bash scripts/dev.sh build"]
    for variables, command in commands:
        assert command in runs, f"the workflow does not run `{command}`"
        assert variables <= set(runs[command].get("env", {})), f"`{command}` without {variables}"
    site_url = runs["bash scripts/dev.sh build"]["env"]["SITE_URL"]
    assert site_url == "${{ steps.pages.outputs.base_url }}/"  # configure-pages' base_url has no trailing slash
    assert next(s for s in steps if s.get("id") == "pages")["uses"].startswith("actions/configure-pages@")
    order = [s.get("run", s.get("uses", "")).strip().partition("@")[0] for s in steps]
    assert order.index("bash scripts/dev.sh test") < order.index("bash scripts/dev.sh build") < order.index(
        "actions/upload-pages-artifact")
    assert "actions/upload-pages-artifact" in uses
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"  # mkdocs' default site_dir, which mkdocs.yml keeps
    assert "site_dir" not in (ROOT / "mkdocs.yml").read_text()
    assert deploy["needs"] == "build" and deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
