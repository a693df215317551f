"""`ecfgrading serve`: gunicorn and whitenoise as a real process, on a tiny demo home.

Real processes, real HTTP: the settings are read once per process from the environment.
These tests use SQLite homes of their own, whatever DATABASE_URL says, so they run in
the SQLite pass only.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.sqlite

ECFGRADING = Path(sys.executable).with_name("ecfgrading")
FAR_FUTURE = "max-age=315360000"  # whitenoise's ten years for a hashed (immutable) name


def environment(home: Path, **extra: str) -> dict[str, str]:
    """The machine's environment on a home of its own: SQLite and the database cache."""
    dropped = ("DATABASE_URL", "REDIS_URL", "ECFGRADING_DEBUG", "ECFGRADING_HTTPS")
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    return {**env, "ECFGRADING_HOME": str(home), **extra}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny demo federation, built by the CLI as `make demo` builds the full one."""
    home = tmp_path_factory.mktemp("serve") / "home"
    subprocess.run(
        [str(ECFGRADING), "demo", "--size", "tiny"],
        env=environment(home),
        check=True,
        capture_output=True,
        timeout=600,
    )
    return home


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def fetch(url: str, method: str = "GET", **headers: str) -> Answer:
    request = urllib.request.Request(url, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Answer(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, dict(error.headers), error.read())


@dataclass
class Served:
    url: str
    process: subprocess.Popen[str]
    stdout: str = ""
    stderr: str = ""


@pytest.fixture(scope="module")
def served(demo_home: Path) -> Iterator[Served]:
    """`ecfgrading serve --workers 2` on a free port, stopped (SIGTERM) at the end."""
    with serving(environment(demo_home), "--workers", "2", "--access-log") as server:
        yield server


@contextmanager
def serving(env: dict[str, str], *args: str) -> Iterator[Served]:
    """`ecfgrading serve` with ``args`` on a free port, once it answers; stopped
    (SIGTERM) when the block ends, its output kept."""
    port = free_port()
    process = subprocess.Popen(
        [str(ECFGRADING), "serve", "--port", str(port), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    server = Served(f"http://127.0.0.1:{port}/", process)
    try:
        _wait_until_it_answers(server)
        yield server
    finally:
        process.terminate()
        server.stdout, server.stderr = process.communicate(timeout=60)


def _wait_until_it_answers(server: Served) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            _, stderr = server.process.communicate()
            raise AssertionError(f"serve stopped ({server.process.returncode}): {stderr}")
        try:
            fetch(server.url + "admin/login/")
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("serve did not answer within 120 s")


def test_the_home_page_is_served_with_the_security_headers(served: Served) -> None:
    answer = fetch(served.url)

    assert answer.status == 200
    assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
    assert b"ECF Grading Database" in answer.body
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


def stylesheet(page: bytes) -> str:
    """The site's stylesheet as the page links it (collectstatic names it by its hash)."""
    found = re.search(rb'href="/static/(web/site\.([0-9a-f]{12})\.css)"', page)
    assert found, "the page links no hashed site.css"
    return found.group(1).decode()


def test_a_static_file_has_a_hashed_name_and_is_cached_for_ever(served: Served) -> None:
    path = stylesheet(fetch(served.url + "no-such-page/").body)  # the 404 page

    answer = fetch(served.url + "static/" + path)

    assert answer.status == 200
    assert answer.headers["Content-Type"].startswith("text/css")
    assert FAR_FUTURE in answer.headers["Cache-Control"]
    assert "immutable" in answer.headers["Cache-Control"]
    # The name carries the first 12 hex digits of the MD5 of the content: a change of
    # the file is a new name, which is what makes caching it for ever safe.
    assert hashlib.md5(answer.body).hexdigest()[:12] == path.split(".")[-2]


def test_a_static_file_is_sent_compressed_to_a_client_that_accepts_it(served: Served) -> None:
    path = stylesheet(fetch(served.url + "no-such-page/").body)
    plain = fetch(served.url + "static/" + path).body

    answer = fetch(served.url + "static/" + path, **{"Accept-Encoding": "gzip"})

    assert answer.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(answer.body) == plain
    assert len(answer.body) < len(plain)


def test_a_static_files_plain_name_is_served_but_not_cached_for_ever(served: Served) -> None:
    answer = fetch(served.url + "static/web/site.css")

    assert answer.status == 200
    assert FAR_FUTURE not in answer.headers["Cache-Control"]


def test_a_head_request_gets_the_headers_and_no_body(served: Served) -> None:
    got = fetch(served.url + "admin/login/")
    answer = fetch(served.url + "admin/login/", method="HEAD")

    assert (answer.status, answer.body) == (200, b"")
    assert answer.headers["Content-Length"] == str(len(got.body))


def test_two_workers_answer_concurrent_readers_of_one_sqlite_file(served: Served) -> None:
    pid = served.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert len(children) == 2  # --workers 2, forked by gunicorn's master

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda _: fetch(served.url + "admin/login/"), range(40)))

    assert {answer.status for answer in answers} == {200}


def test_serve_prints_its_url_and_stops_cleanly_on_sigterm(served: Served) -> None:
    """Runs last of the tests on the server: it stops it."""
    served.process.terminate()
    served.stdout, served.stderr = served.process.communicate(timeout=60)

    port = served.url.rsplit(":", 1)[-1].strip("/")
    assert served.stdout == f"serving on http://127.0.0.1:{port}/ with 2 workers (Ctrl-C stops)\n"
    assert served.process.returncode == 0
    # stderr is the access log, and nothing else: gunicorn warned of nothing (a HEAD too).
    lines = served.stderr.splitlines()
    assert any('"HEAD /admin/login/ HTTP/1.1" 200 0' in line for line in lines)
    assert all(re.match(r'127\.0\.0\.1 - - \[[^]]+\] "(GET|HEAD) /', line) for line in lines)


def run_serve(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ECFGRADING), "serve", *args],
        env=environment(home, **env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_serve_on_a_home_never_initialised_says_run_init_and_exits_1(tmp_path: Path) -> None:
    home = tmp_path / "home"

    ran = run_serve(home, "--port", str(free_port()))

    database = home / "ecfgrading.sqlite3"
    assert (ran.returncode, ran.stdout, ran.stderr) == (
        1,
        "",
        f"Error: no database here: run `ecfgrading init` (expected the SQLite file {database})\n",
    )
    assert not database.exists()


def test_the_demo_home_has_a_random_key_of_its_own_that_only_its_owner_reads(
    demo_home: Path,
) -> None:
    """Issue 24, case 13: `make demo` serves without a key in the environment."""
    key = demo_home / "secret_key"

    assert len(key.read_text().strip()) >= 50
    assert "insecure" not in key.read_text()
    assert key.stat().st_mode & 0o777 == 0o600


def test_serve_on_a_taken_port_says_so_and_exits_1(demo_home: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]

        ran = run_serve(demo_home, "--port", str(port))

    assert (ran.returncode, ran.stdout, ran.stderr) == (
        1,
        "",
        f"Error: port {port} on 127.0.0.1 is taken (another server listens there): stop it, "
        "or choose another port with --port\n",
    )


def test_serve_without_its_shared_cache_says_what_to_start_and_exits_1(demo_home: Path) -> None:
    port = free_port()  # nothing listens there: a Redis server that is not running

    ran = run_serve(demo_home, "--port", str(free_port()), REDIS_URL=f"redis://127.0.0.1:{port}/0")

    assert ran.returncode == 1
    assert ran.stderr.startswith("Error: the shared cache does not answer (")
    assert ran.stderr.endswith(
        "check the Redis server REDIS_URL names: start it, or unset REDIS_URL\n"
    )
    assert "Traceback" not in ran.stderr


def test_an_admin_edit_waiting_behind_a_writer_is_told_busy_before_its_worker_is_stopped(
    demo_home: Path,
) -> None:
    """gunicorn stops a worker that has not answered for 30 s; the workers of `ecfgrading
    serve` wait for the database's locks 25 s at most (ECFGRADING_LOCK_TIMEOUT is 300
    here), so that staff saving a club while another writer holds SQLite's write lock
    read the admin's "busy" page (409), not a dropped connection; the club is unchanged."""
    env = environment(demo_home, ECFGRADING_LOCK_TIMEOUT="300")
    password = "a-staff-password-9"
    made = subprocess.run(
        [sys.executable, "-m", "django", "createsuperuser", "--noinput", "--username", "staff"],
        env={
            **env,
            "DJANGO_SETTINGS_MODULE": "ecfgrading.settings",
            "DJANGO_SUPERUSER_PASSWORD": password,
            "DJANGO_SUPERUSER_EMAIL": "staff@example.org",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    database = demo_home / "ecfgrading.sqlite3"
    with closing(sqlite3.connect(database)) as db:
        club_id, name, code = db.execute(
            "SELECT id, name, code FROM registry_club LIMIT 1"
        ).fetchone()
    with serving(env, "--workers", "1") as server:
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        signed_in = _posted(
            browser,
            server.url + "admin/login/",
            {"username": "staff", "password": password, "next": "/admin/"},
        )
        assert signed_in.status == 200 and b"Site administration" in signed_in.body
        change = f"{server.url}admin/registry/club/{club_id}/change/"
        form = {"name": f"{name} Renamed", "code": code or "", "county": ""}
        writer = sqlite3.connect(database, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")  # SQLite's one write lock, held
        try:  # answered at all: before gunicorn stopped the worker (30 s)
            answer = _posted(browser, change, form, timeout=60)
        finally:
            writer.close()
    page = answer.body.decode()
    assert answer.status == 409, page[:500]
    assert "Saving this change: the database stayed busy for 25 s" in page
    with closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT name FROM registry_club WHERE id = ?", [club_id]).fetchone() == (
            name,
        )


def _posted(browser: Any, url: str, fields: dict[str, str], timeout: float = 30) -> Answer:
    """``fields`` posted on the form at ``url`` as a browser would, its CSRF token read
    from the form first."""
    with browser.open(url, timeout=30) as shown:
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', shown.read())
    assert token is not None
    body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token[1].decode()}).encode()
    request = urllib.request.Request(url, data=body, method="POST")
    try:
        with browser.open(request, timeout=timeout) as response:
            return Answer(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, dict(error.headers), error.read())
