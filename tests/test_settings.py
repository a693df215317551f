"""Settings come from the environment, with defaults that just work; a value that cannot
be read stops start-up with one line naming the variable (issue 20, item 6)."""

import os
import re
import runpy
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.utils import ConnectionHandler

import ecfgrading.settings

ROOT = Path(__file__).resolve().parent.parent
ECFGRADING = Path(sys.executable).with_name("ecfgrading")


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
    assert database["ENGINE"] == "ecfgrading.registry.backends.sqlite3"  # Django's, see there
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


# Strict reading (issue 20, item 6) ---------------------------------------------------------


def run_cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The installed command in a home of its own: the settings are read once per process."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ECFGRADING_", "DATABASE"))}
    environment = {**base, "ECFGRADING_HOME": str(tmp_path / "home"), **env}
    return subprocess.run(
        [str(ECFGRADING), *args], env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("ECFGRADING_EMAIL_PORT", "25x", "a port number from 1 to 65535"),
        ("ECFGRADING_EMAIL_PORT", "70000", "a port number from 1 to 65535"),
        ("ECFGRADING_LOGIN_ATTEMPTS", "five", "a whole number of attempts, 1 or more"),
        ("ECFGRADING_MAIL_ATTEMPTS", "-1", "a whole number of tries, 1 or more"),
        ("ECFGRADING_PAGE_MEMORY_MB", "32MB", "a number of megabytes, 0 or more"),
        ("ECFGRADING_PAGE_MEMORY_MB", "nan", "a number of megabytes, 0 or more"),
        ("ECFGRADING_LOCK_TIMEOUT", "5m", "a whole number of seconds, 1 or more"),
        ("ECFGRADING_DEBUG", "ture", "1, 0, true, false, yes, no, on or off"),
        ("ECFGRADING_HTTPS", "enabled", "1, 0, true, false, yes, no, on or off"),
        ("ECFGRADING_FEEDBACK_RATE", "5 per hour", "forms per period such as 5/h, 20/d or 3/10m"),
    ],
    ids=lambda v: v if isinstance(v, str) and v.startswith("ECF") else "",
)
def test_a_value_that_cannot_be_read_is_one_line_naming_it_and_exit_2(
    tmp_path: Path, name: str, value: str, expected: str
) -> None:
    ran = run_cli(tmp_path, "init", **{name: value})

    assert (ran.returncode, ran.stdout, ran.stderr) == (
        2,
        "",
        f"Error: expected {name} {expected}, got {value!r}\n",
    )
    assert not (tmp_path / "home" / "ecfgrading.sqlite3").exists()


def test_a_value_with_a_newline_is_still_shown_on_one_line(tmp_path: Path) -> None:
    ran = run_cli(tmp_path, "init", ECFGRADING_MAIL_ATTEMPTS="8\n9")

    expected = "a whole number of tries, 1 or more, got '8\\n9'"
    assert (ran.returncode, ran.stderr.splitlines()) == (
        2,
        [f"Error: expected ECFGRADING_MAIL_ATTEMPTS {expected}"],
    )


def test_a_bad_url_is_shown_without_its_password(monkeypatch, tmp_path) -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        load_settings(
            monkeypatch, ECFGRADING_HOME=str(tmp_path), REDIS_URL="http://me:secret@cache:6379/0"
        )

    assert str(refused.value) == (
        "expected REDIS_URL a URL such as redis://127.0.0.1:6379/0, "
        "got 'http://me:***@cache:6379/0'"
    )


@pytest.mark.parametrize(
    ("value", "on"),
    [
        *[("1", True), ("TRUE", True), ("Yes", True), ("on", True)],
        *[("0", False), ("false", False), ("NO", False), ("Off", False), ("", False)],
    ],
)
def test_a_flag_takes_exactly_the_words_for_on_and_off_in_any_case(
    monkeypatch, tmp_path, value: str, on: bool
) -> None:
    settings = load_settings(monkeypatch, ECFGRADING_HOME=str(tmp_path), ECFGRADING_HTTPS=value)

    assert settings["HTTPS"] is on
    assert settings.get("SESSION_COOKIE_SECURE", False) is on


def test_numbers_in_range_are_read(monkeypatch, tmp_path) -> None:
    settings = load_settings(
        monkeypatch,
        ECFGRADING_HOME=str(tmp_path),
        ECFGRADING_EMAIL_PORT=" 587 ",
        ECFGRADING_PAGE_MEMORY_MB="0.5",
        ECFGRADING_LOGIN_ATTEMPTS="3",
    )

    assert (settings["EMAIL_PORT"], settings["PAGE_MEMORY_MB"]) == (587, 0.5)
    assert settings["AXES_FAILURE_LIMIT"] == 3


class Reading(dict[str, str]):
    """``os.environ`` that notes the name of every variable read."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.names: set[str] = set()

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        self.names.add(name)
        return super().get(name, default)

    def __getitem__(self, name: str) -> str:
        self.names.add(name)
        return super().__getitem__(name)

    def __contains__(self, name: object) -> bool:
        self.names.add(str(name))
        return super().__contains__(name)


def test_every_variable_the_settings_read_is_documented_in_deploy_md(monkeypatch, tmp_path) -> None:
    environment = Reading({"ECFGRADING_HOME": str(tmp_path)})
    environment["ECFGRADING_CLIENT_IP_HEADER"] = "HTTP_X_REAL_IP"  # a branch reads it again
    monkeypatch.setattr(os, "environ", environment)

    runpy.run_path(ecfgrading.settings.__file__)

    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", (ROOT / "docs" / "deploy.md").read_text()))
    assert {"DATABASE_URL", "ECFGRADING_HOME", "ECFGRADING_DEBUG"} <= environment.names
    assert environment.names - documented == set()


@pytest.mark.postgresql
@pytest.mark.django_db
def test_a_postgresql_connection_is_told_its_lock_timeout_and_the_cost_of_pages() -> None:
    """Every connection is told lock_timeout (issue 20) and the random page cost of data
    in memory or on SSD (issue 25: 4, the server's default, hashed every player to join a
    county match's games)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        (cost,) = cursor.fetchone()
        cursor.execute("SHOW lock_timeout")
        (timeout,) = cursor.fetchone()
    assert float(cost) == 1.1
    assert timeout == "5min"  # ECFGRADING_LOCK_TIMEOUT's default, 300 s


@pytest.mark.parametrize(
    ("given", "served", "waited"),
    [("300", None, 300), ("300", "1", 25), ("10", "1", 10)],
    ids=["not served", "served, bounded", "served, shorter already"],
)
def test_the_workers_of_serve_wait_for_locks_less_than_they_may_take_to_answer(
    monkeypatch, tmp_path, given: str, served: str | None, waited: int
) -> None:
    """gunicorn stops a worker silent for WORKER_TIMEOUT (30 s): `ecfgrading serve`'s
    workers (ECFGRADING_SERVED) wait for locks 25 s at most, on either database."""
    lite = load_settings(
        monkeypatch,
        ECFGRADING_HOME=str(tmp_path),
        DATABASE_URL=None,
        ECFGRADING_LOCK_TIMEOUT=given,
        ECFGRADING_SERVED=served,
    )
    assert (lite["WORKER_TIMEOUT"], lite["LOCK_TIMEOUT"]) == (30, waited)
    assert lite["DATABASES"]["default"]["OPTIONS"]["timeout"] == waited
    server = load_settings(monkeypatch, DATABASE_URL="postgres://grader@db.example:5433/grading")
    assert f"-c lock_timeout={waited}s" in server["DATABASES"]["default"]["OPTIONS"]["options"]
