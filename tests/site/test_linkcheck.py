"""The post-build link check on a hand-made three-page site: what it must report, and what it must accept."""
from layerwise_build.crosslink.linkcheck import check_site


def _page(path, body):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<!doctype html><html><head>{body[0]}</head><body>{body[1]}</body></html>")


def test_reports_missing_pages_anchors_and_foreign_loads_and_accepts_the_rest(tmp_path):
    _page(tmp_path / "index.html", ('<link rel="canonical" href="https://example.org/">'
                                    '<link rel="stylesheet" href="assets/site.css">',
                                    '<a href="a/#top">ok</a> <a href="a/#gone">anchor</a> <a href="nowhere/">page</a>'
                                    '<a href="https://example.org/paper">an external reference is fine</a>'))
    _page(tmp_path / "a" / "index.html", ('<script src="https://cdn.example.org/x.js"></script>',
                                          '<h1 id="top">A</h1><a href="../#">home</a><a href="#L3">line</a>'))
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "site.css").write_text("")
    assert check_site(tmp_path) == [
        "page 'a/index.html' loads https://cdn.example.org/x.js from another origin (script src)",
        "page 'a/index.html' links to '#L3' but 'a/index.html' has no anchor '#L3'",
        "page 'index.html' links to 'a/#gone' but 'a/index.html' has no anchor '#gone'",
        "page 'index.html' links to 'nowhere/', which is not a file of the site",
    ]
    assert check_site(tmp_path, allowed_origins=("https://cdn.example.org",))[0].startswith("page 'a/index.html' links")


def test_absolute_paths_start_at_the_sites_own_path(tmp_path):
    """A site published at https://example.org/some/path/: its 404 page links /some/path/a/, never /a/."""
    _page(tmp_path / "404.html", ("", '<a href="/some/path/a/">in the site</a><a href="/a/">outside it</a>'))
    _page(tmp_path / "a" / "index.html", ("", "<h1>A</h1>"))
    assert check_site(tmp_path, base_path="/some/path/") == [
        "page '404.html' links to '/a/', which is not a file of the site"]
    assert check_site(tmp_path) == ["page '404.html' links to '/some/path/a/', which is not a file of the site"]
