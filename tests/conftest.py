"""Test setup shared by every suite.

Database tests run on real SQLite by default (Django's in-memory test database) and on
real PostgreSQL when DATABASE_URL names one:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/pytest tests/registry

pytest-django then creates and drops ``test_test`` through the ``postgres`` maintenance
database, which needs no password under trust authentication. Pure tests (engine,
formats) use no database and run unchanged either way.
"""

import gc
import os
from collections.abc import Iterator

import pytest
from django.test import override_settings


@pytest.fixture(autouse=True, scope="session")
def _static_files_without_collectstatic() -> Iterator[None]:
    """Pages render {% static %} without a collectstatic run (production hashes names)."""
    from django.conf import settings

    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        yield


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The cycle collector on for the test, as it was after (ecfgrading.collector)."""
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


@pytest.fixture(autouse=True)
def _forget_pages() -> None:
    """A page one test's worker remembered (web.memory) never answers another test: a
    rolled-back database may come back to the same data token with other data."""
    from ecfgrading.lookups.events import forget_seasons
    from ecfgrading.web.memory import MEMORY

    MEMORY.clear()
    forget_seasons()


def _on_postgresql() -> bool:
    """The settings pick PostgreSQL exactly when DATABASE_URL names it."""
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``postgresql`` run in the PostgreSQL pass of ``make test`` only, and
    tests marked ``sqlite`` (their own SQLite files, whatever DATABASE_URL says) in the
    SQLite pass only.

    They are deselected, not skipped, on SQLite: CI runs both passes, so nothing is
    silently left out.
    """
    other = "sqlite" if _on_postgresql() else "postgresql"
    chosen = [item for item in items if item.get_closest_marker(other) is None]
    deselected = [item for item in items if item.get_closest_marker(other) is not None]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = chosen
