"""The public site's tests share one tiny demo federation, built once for the package.

The demo (300 players, three seasons, every list published in order) is built on the
test database with the real pipeline, then flushed when the package's tests are done.
Pages are cached in the shared cache, which is cleared before each test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from ecfgrading.demo import build_demo
from ecfgrading.demo.summary import DemoSummary
from tests.flushing import flush_database
from tests.web.browser import Browser, open_browser
from tests.web.live import Site, build, serving


@pytest.fixture(scope="package")
def demo(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DemoSummary]:
    """The tiny demo federation, committed, for every test of the package that asks."""
    home: Path = tmp_path_factory.mktemp("web-demo")
    with django_db_blocker.unblock():
        summary = build_demo(home, size="tiny", seed=3)
        yield summary
        flush_database()


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest) -> None:
    """Cached pages of one test never answer another's requests (database tests; the
    browser tests serve a database of their own, with its own cache)."""
    if request.node.get_closest_marker("django_db") is not None:
        request.getfixturevalue("db")
        cache.clear()


@pytest.fixture(autouse=True)
def _nothing_kept(settings: Any, tmp_path: Path) -> None:
    """List files kept on a server's disk (``lookups.list_files``, under the home) by one
    test never answer another's: each test has a home of its own."""
    settings.HOME = tmp_path


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The tiny demo served by ``ecfgrading serve`` from a SQLite home of its own (for
    tests marked ``sqlite``)."""
    home = tmp_path_factory.mktemp("served-demo")
    build(home)
    with serving(home) as running:
        yield running


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Debian's Chromium through Playwright."""
    with open_browser() as opened:
        yield opened


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where the browser tests leave their screenshots (var/test-output/screenshots)."""
    folder = Path("var/test-output/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
