"""Settings come from the environment, with defaults that just work."""

import runpy
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from django.db.utils import ConnectionHandler

import ecfgrading.settings


def load_settings(monkeypatch, **environment: str | None) -> dict[str, Any]:
    """Run the settings module afresh under the given environment."""
    for name, value in environment.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    return runpy.run_path(ecfgrading.settings.__file__)


def test_the_default_database_is_a_sqlite_file_in_a_new_home(monkeypatch, tmp_path) -> None:
    home = tmp_path / "not" / "yet" / "there"
    settings = load_settings(monkeypatch, ECFGRADING_HOME=str(home), DATABASE_URL=None)

    assert home.is_dir()
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(database["NAME"]) == home / "ecfgrading.sqlite3"


def test_the_home_defaults_to_var_under_the_working_directory(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings(monkeypatch, ECFGRADING_HOME=None, DATABASE_URL=None)

    assert settings["HOME"] == tmp_path / "var"
    assert (tmp_path / "var").is_dir()


def test_database_url_picks_postgresql(monkeypatch, tmp_path) -> None:
    settings = load_settings(
        monkeypatch,
        ECFGRADING_HOME=str(tmp_path),
        DATABASE_URL="postgres://grader@db.example:5433/grading",
    )

    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["HOST"], database["PORT"]) == (
        "grading",
        "grader",
        "db.example",
        5433,
    )


def test_a_sqlite_database_opens_in_wal_mode(monkeypatch, tmp_path, django_db_blocker) -> None:
    settings = load_settings(monkeypatch, ECFGRADING_HOME=str(tmp_path), DATABASE_URL=None)
    connections = ConnectionHandler({"default": settings["DATABASES"]["default"]})
    with django_db_blocker.unblock():  # a database of its own, not the test database
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("PRAGMA journal_mode")
                mode = cursor.fetchone()[0]
        finally:
            connections.close_all()

    assert mode == "wal"
    with closing(sqlite3.connect(tmp_path / "ecfgrading.sqlite3")) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # kept in the file


def test_debug_is_off_and_hosts_are_local_by_default(monkeypatch, tmp_path) -> None:
    settings = load_settings(
        monkeypatch,
        ECFGRADING_HOME=str(tmp_path),
        ECFGRADING_DEBUG=None,
        ECFGRADING_ALLOWED_HOSTS=None,
    )

    assert settings["DEBUG"] is False
    assert settings["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]


@pytest.mark.parametrize(("value", "debug"), [("1", True), ("true", True), ("0", False)])
def test_debug_and_hosts_come_from_the_environment(monkeypatch, tmp_path, value, debug) -> None:
    settings = load_settings(
        monkeypatch,
        ECFGRADING_HOME=str(tmp_path),
        ECFGRADING_DEBUG=value,
        ECFGRADING_ALLOWED_HOSTS="grading.example, www.grading.example",
        ECFGRADING_SECRET_KEY="from-the-environment",
    )

    assert settings["DEBUG"] is debug
    assert settings["ALLOWED_HOSTS"] == ["grading.example", "www.grading.example"]
    assert settings["SECRET_KEY"] == "from-the-environment"
