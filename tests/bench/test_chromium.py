"""The browser benchmarks find Debian's chromium or say how to get it, before any work."""
import pytest

from browserbench import chromium


def test_a_missing_browser_is_named_with_how_to_install_it(monkeypatch, tmp_path):
    missing = tmp_path / "chromium"
    monkeypatch.setattr(chromium, "CHROMIUM", str(missing))
    with pytest.raises(SystemExit) as stopped:
        chromium.executable()
    assert str(missing) in str(stopped.value)
    assert "apt-get install chromium" in str(stopped.value)


def test_a_present_browser_is_launched_from_its_path(monkeypatch, tmp_path):
    present = tmp_path / "chromium"
    present.write_text("#!/bin/sh\n")
    monkeypatch.setattr(chromium, "CHROMIUM", str(present))
    assert chromium.executable() == str(present)
