"""Cached pages are keyed by the code deployed (issue 23): the shared cache outlives the
app servers, and a page made by one deployment must not be served by the next."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.web import deployed


def _build_of(root: Path) -> str:
    deployed.site_build.cache_clear()
    original = deployed.ecfgrading.__file__
    deployed.ecfgrading.__file__ = str(root / "__init__.py")
    try:
        return deployed.site_build()
    finally:
        deployed.ecfgrading.__file__ = original
        deployed.site_build.cache_clear()


def test_a_changed_template_style_or_line_of_code_is_another_build(tmp_path: Path) -> None:
    (tmp_path / "web" / "templates").mkdir(parents=True)
    template = tmp_path / "web" / "templates" / "page.html"
    style = tmp_path / "web" / "site.css"
    code = tmp_path / "views.py"
    for path, text in ((template, "<p>Grade</p>"), (style, "p{}"), (code, "x = 1\n")):
        path.write_text(text)
    first = _build_of(tmp_path)
    assert _build_of(tmp_path) == first  # the same files: the same build
    for path, text in ((template, "<p>Grades</p>"), (style, "p{color:red}"), (code, "x=2")):
        kept = path.read_text()
        path.write_text(text)
        assert _build_of(tmp_path) != first, path.name
        path.write_text(kept)
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "views.cpython-311.pyc").write_bytes(b"\x00")
    (tmp_path / "notes.md").write_text("not served")
    assert _build_of(tmp_path) == first  # compiled files and others do not count


@pytest.mark.django_db
def test_a_page_cached_by_another_build_is_not_served(
    client: Client, demo: DemoSummary, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ecfgrading.web.memory import MEMORY

    first = client.get("/lists/")
    assert first.status_code == 200
    again = client.get("/lists/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304  # the same build: the browser's copy is confirmed
    monkeypatch.setattr("ecfgrading.web.caching.site_build", lambda: "another-build")
    MEMORY.clear()
    after = client.get("/lists/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
