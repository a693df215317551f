"""A writer that waits longer than ECFGRADING_LOCK_TIMEOUT gets a clear message, exit 1.

Real processes on a real database of the pass (a SQLite file, or a fresh PostgreSQL
database on the server DATABASE_URL names): this test holds the lock another writer
would hold (SQLite's write lock; on PostgreSQL the registry lock and a table lock, as a
running import or grading run would), then runs `ecfgrading` with a one-second timeout.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from ecfgrading.services.locks import REGISTRY_LOCK_KEY, TURN_KEY
from tests.services.results_text import results_file

ECFGRADING = Path(sys.executable).with_name("ecfgrading")
LIST_2012 = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
    '261619B,"Bloggs, Joe",M,,A,150,148,30,,,,,Walsall,,,,,,,ENG\n'
    '233310H,"Smith, John",M,,A,120,118,30,,,,,Anytown,,,,,,,ENG\n'
    '102807J,"Smith, John",M,,A,100,104,30,,,,,Otherton,,,,,,,ENG\n'
)
BLOGGS = "#PIN=1#BCF CODE=261619B#NAME=Bloggs, Joe#CLUB NAME=Walsall"
GAMES = [
    "#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013",
    "#PIN1=2#SCORE=55#PIN2=1#ROUND=2#GAME DATE=12/05/2013",
]
# Graded games for the 2013-07 list, and a namesake of both Smiths queued as case 1.
CODED = results_file([BLOGGS, "#PIN=2#BCF CODE=233310H#NAME=Smith, John"], GAMES)
DOUBTFUL = results_file(
    [BLOGGS, "#PIN=2#NAME=Smith, John#CLUB NAME=Newtown"], GAMES, code="XX12346", name="Cup"
)
BUSY = (
    "the database stayed busy for 1 s (another import or grading run was writing); "
    "nothing was changed, try again (ECFGRADING_LOCK_TIMEOUT sets the wait)"
)


def on_postgresql() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of `ecfgrading` on a database holding the files above."""
    folder = tmp_path_factory.mktemp("locks")
    env = {**os.environ, "ECFGRADING_HOME": str(folder / "home")}
    with _fresh_postgresql() if on_postgresql() else _no_url() as url:
        if url:
            env["DATABASE_URL"] = url
        else:
            env.pop("DATABASE_URL", None)
        for name, data in (("list.csv", LIST_2012.encode()), ("a.txt", CODED), ("b.txt", DOUBTFUL)):
            (folder / name).write_bytes(data)
        load = ["lists", "import", str(folder / "list.csv"), "--list", "2012-07"]
        for args in (["init"], [*load, "--rate", "standard"], ["results", "import", "a.txt"]):
            ran = ecfgrading(env, *args, cwd=folder)
            assert ran.returncode == 0, ran.stderr
        ran = ecfgrading(env, "results", "import", "b.txt", cwd=folder)
        assert ran.returncode == 0, ran.stdout
        yield env


def ecfgrading(env: dict[str, str], *args: str, cwd: Path | None = None) -> Any:
    # A wait that is never cut short would hang here: the timeout makes it a failure.
    return subprocess.run(
        [str(ECFGRADING), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )


def a_late_file(environment: dict[str, str], filename: str, name: str, code: str) -> Path:
    """A file of Bloggs against a newcomer ``name`` for event ``code``, written beside the
    home; the folder it is in."""
    folder = Path(environment["ECFGRADING_HOME"]).parent
    players = [BLOGGS, f"#PIN=2#NAME={name}#CLUB NAME=Anytown"]
    (folder / filename).write_bytes(results_file(players, GAMES, code=code))
    return folder


@contextmanager
def _no_url() -> Iterator[str]:
    yield ""


@contextmanager
def _fresh_postgresql() -> Iterator[str]:
    import psycopg

    server = urlsplit(os.environ["DATABASE_URL"])
    name = f"h7_locks_{uuid.uuid4().hex[:8]}"
    admin_url = urlunsplit(server._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(server._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@contextmanager
def another_writer(env: dict[str, str]) -> Iterator[None]:
    """Hold what a running import (the registry lock) or grading run (its version rows)
    holds, in an open transaction, until the block ends."""
    if "DATABASE_URL" not in env:
        database = sqlite3.connect(Path(env["ECFGRADING_HOME"]) / "ecfgrading.sqlite3")
        database.isolation_level = None
        database.execute("BEGIN IMMEDIATE")  # SQLite's one write lock
        try:
            yield
        finally:
            database.close()
        return
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as server:  # one transaction till the end
        server.execute("SELECT pg_advisory_xact_lock(%s)", [REGISTRY_LOCK_KEY])
        server.execute("LOCK TABLE registry_listversion IN EXCLUSIVE MODE")
        yield


@contextmanager
def another_importers_turn(env: dict[str, str]) -> Iterator[None]:
    """Hold the importers' turn (services.locks.importers_turn), as a batch writing its
    next files would, until the block ends."""
    if "DATABASE_URL" not in env:
        turn = Path(env["ECFGRADING_HOME"]) / "ecfgrading.sqlite3-turn"
        with turn.open("a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            yield
        return
    import psycopg

    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as server:
        server.execute("SELECT pg_advisory_lock(%s)", [TURN_KEY])
        yield


def test_a_grading_run_that_waits_too_long_says_the_database_was_busy(
    environment: dict[str, str],
) -> None:
    env = {**environment, "ECFGRADING_LOCK_TIMEOUT": "1"}
    with another_writer(env):
        ran = ecfgrading(env, "grade", "--list", "2013-07", "--rate", "standard")
    busy = f"Error: grading the standard list 2013-07: {BUSY}\n"
    assert (ran.returncode, ran.stderr) == (1, busy)
    # Nothing was written: with the lock free, the same run makes the first version.
    ran = ecfgrading(environment, "grade", "--list", "2013-07", "--rate", "standard")
    assert (ran.returncode, "version initial" in ran.stdout) == (0, True)


def test_a_queue_decision_that_waits_too_long_says_the_database_was_busy(
    environment: dict[str, str],
) -> None:
    env = {**environment, "ECFGRADING_LOCK_TIMEOUT": "1"}
    with another_writer(env):
        ran = ecfgrading(env, "identify", "resolve", "1", "--code", "102807J")
    assert (ran.returncode, ran.stderr) == (1, f"Error: deciding case 1: {BUSY}\n")
    ran = ecfgrading(environment, "identify", "resolve", "1", "--code", "102807J")
    assert (ran.returncode, ran.stdout) == (
        0,
        "case 1: 102807J Smith, John; its games now count for him\n",
    )


@pytest.mark.parametrize(
    ("command", "what"),
    [
        (("merge", "102807J", "--into", "233310H"), "merging 102807J into 233310H"),
        (
            ("lists", "import", "list.csv", "--list", "2011-07", "--rate", "standard"),
            "loading list 2011-07",
        ),
    ],
    ids=["merge", "lists-import"],
)
def test_other_writers_of_who_is_on_record_say_the_database_was_busy(
    environment: dict[str, str], command: tuple[str, ...], what: str
) -> None:
    env = {**environment, "ECFGRADING_LOCK_TIMEOUT": "1"}
    with another_writer(env):
        ran = ecfgrading(env, *command, cwd=Path(env["ECFGRADING_HOME"]).parent)
    assert (ran.returncode, ran.stderr) == (1, f"Error: {what}: {BUSY}\n")


def test_a_results_import_that_waits_too_long_loses_nothing_and_can_be_retried(
    environment: dict[str, str],
) -> None:
    """SQLite's single write lock stops even the storing of the file, which the officer
    still has; PostgreSQL stores it first, and it waits, received, for a retry."""
    folder = a_late_file(environment, "late.txt", "Late, Larry", "LT1")
    env = {**environment, "ECFGRADING_LOCK_TIMEOUT": "1"}
    with another_writer(env):
        ran = ecfgrading(env, "results", "import", "late.txt", cwd=folder)
    assert ran.returncode == 1 and "Traceback" not in ran.stderr
    if "DATABASE_URL" not in env:
        assert ran.stderr == f"Error: late.txt: not stored, nothing was imported: {BUSY}\n"
        ran = ecfgrading(environment, "results", "import", "late.txt", cwd=folder)
        assert ran.returncode == 0 and "accepted" in ran.stdout
        return
    waiting = ecfgrading(environment, "results", "interrupted", "--json")
    (left,) = json.loads(waiting.stdout)
    kept = f"Error: late.txt: not imported (kept as submission {left['submission']}): {BUSY}\n"
    assert (ran.stderr, left["filename"]) == (kept, "late.txt")
    ran = ecfgrading(environment, "results", "retry", str(left["submission"]))
    assert ran.returncode == 0 and "accepted" in ran.stdout


def test_an_import_waits_for_another_importers_turn_then_goes_on(
    environment: dict[str, str],
) -> None:
    folder = a_late_file(environment, "waits.txt", "Waits, Walter", "WT1")
    with another_importers_turn(environment):
        started = subprocess.Popen(
            [str(ECFGRADING), "results", "import", "waits.txt"],
            env=environment,
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        with contextlib.suppress(subprocess.TimeoutExpired):
            started.wait(timeout=3)  # it should still be waiting after this
        assert started.returncode is None, started.communicate()
    out, err = started.communicate(timeout=60)
    assert started.returncode == 0, err
    assert "waits.txt: WT1" in out and "  accepted" in out


def test_an_import_whose_turn_never_comes_says_the_database_was_busy(
    environment: dict[str, str],
) -> None:
    folder = a_late_file(environment, "never.txt", "Never, Nora", "NV1")
    env = {**environment, "ECFGRADING_LOCK_TIMEOUT": "1"}
    with another_importers_turn(env):
        ran = ecfgrading(env, "results", "import", "never.txt", cwd=folder)
    assert (ran.returncode, ran.stderr) == (
        1,
        f"Error: never.txt: not stored, nothing was imported: {BUSY}\n",
    )
    waiting = ecfgrading(environment, "results", "interrupted", "--json")
    assert json.loads(waiting.stdout) == []  # nothing half-done: the officer still has it
    ran = ecfgrading(environment, "results", "import", "never.txt", cwd=folder)
    assert ran.returncode == 0 and "  accepted" in ran.stdout


# Django's test client on the environment's database, in a process of its own: the
# admin's edit of a club, as staff would make it, by a user signed in first.
ADMIN_EDIT = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")
import django
django.setup()
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
from django.urls import reverse
from ecfgrading.registry.models import Club

setup_test_environment()
plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}).enable()  # no collectstatic
client, club = Client(raise_request_exception=False), Club.objects.get(name__startswith="Walsall")
if sys.argv[1] == "name":
    print(club.name)
elif sys.argv[1] == "sign in":
    staff = get_user_model().objects.create_superuser("staff", "staff@example.org", "x")
    client.force_login(staff)
    print(client.cookies[settings.SESSION_COOKIE_NAME].value)
else:
    client.cookies[settings.SESSION_COOKIE_NAME] = sys.argv[2]
    form = {"code": club.code or "", "name": "Walsall Wood", "county": club.county_id or ""}
    response = client.post(reverse("admin:registry_club_change", args=[club.pk]), form)
    print(response.status_code)
    print(response.content.decode())
"""


def test_an_admin_edit_that_waits_too_long_says_the_database_was_busy(
    environment: dict[str, str],
) -> None:
    """Staff renaming a club in the admin while an import holds the registry lock longer
    than the wait: the site's error page (409, "Not possible now") with the wait's own
    message, not a server error; the club keeps its name."""

    def admin(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", ADMIN_EDIT, *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    signed_in = admin(environment, "sign in")
    assert signed_in.returncode == 0, signed_in.stderr
    env = {**environment, "ECFGRADING_LOCK_TIMEOUT": "1"}
    with another_writer(env):
        ran = admin(env, "edit", signed_in.stdout.strip())
    assert ran.returncode == 0, ran.stderr
    status, page = ran.stdout.split("\n", 1)
    assert status == "409", page[:800]
    assert "Not possible now" in page
    assert f"Saving this change: {BUSY}" in page
    assert re.search(r'<a href="/admin/registry/club/\d+/change/">Open the page again</a>', page)
    assert admin(environment, "name").stdout == "Walsall\n"
