"""The PostgreSQL pass's server: the one that answers, or a throwaway one removed after.

The throwaway tests start real servers from the installed programs (a second or two
each); they are skipped where none are installed, and left out of the PostgreSQL pass.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from scripts import throwaway_postgres as pg

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "throwaway_postgres.py"

# Run by the throwaway server's command: where the server keeps its data and its pid.
PROBE = """
import os, sys, time, psycopg
with psycopg.connect(os.environ["DATABASE_URL"]) as db:
    folder = db.execute("SHOW data_directory").fetchone()[0]
    database = db.execute("SELECT current_database()").fetchone()[0]
pid = open(os.path.join(folder, "postmaster.pid")).readline().strip()
print(folder, pid, database, os.environ["DATABASE_URL"], flush=True)
time.sleep(float(sys.argv[1]))
sys.exit(int(sys.argv[2]))
"""


def nobody_listens() -> str:
    """A test URL with no server behind it."""
    return f"postgres://postgres@127.0.0.1:{pg.free_port()}/test"


@pytest.fixture(scope="module")
def programs() -> pg.Programs:
    try:
        return pg.Programs(pg.find_programs(os.environ.get("PATH", "")), pg.server_user())
    except pg.Unavailable as missing:
        pytest.skip(f"no throwaway server here: {missing}")


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def gone(folder: str, pid: int, port: int) -> bool:
    """No data folder, no server process, nothing listening on its port."""
    try:
        os.kill(pid, 0)
        return False
    except ProcessLookupError:
        pass
    with socket.socket() as probe:
        refused = probe.connect_ex(("127.0.0.1", port)) != 0
    return refused and not Path(folder).exists()


def test_it_stops_at_once_naming_the_package_when_no_server_programs_are_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no initdb on PATH
    ran = tmp_path / "ran"
    command = [sys.executable, "-c", f"open({str(ran)!r}, 'w')"]

    status = pg.main([nobody_listens(), "--", *command], search=())

    message = capsys.readouterr().err
    assert status == 1
    assert not ran.exists()
    assert "apt-get install postgresql" in message
    assert "brew install postgresql" in message


def test_it_refuses_a_command_line_without_the_separator(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert pg.main(["postgres://postgres@127.0.0.1:5432/test", "pytest"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_a_throwaway_server_holds_the_urls_database_and_is_removed_when_the_command_fails(
    programs: pg.Programs,
) -> None:
    url = nobody_listens()
    done = subprocess.run(
        [sys.executable, str(SCRIPT), url, "--", sys.executable, "-c", PROBE, "0", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    folder, pid, database, given = done.stdout.split()
    assert done.returncode == 3  # the command's status comes through
    assert database == "test"
    assert given != url  # the throwaway server's own port
    assert gone(folder, int(pid), port_of(given))
    assert "stopped and removed" in done.stderr


def test_ctrl_c_stops_the_command_and_removes_the_throwaway_server(
    programs: pg.Programs,
) -> None:
    # Ctrl-C signals the whole foreground process group: the script and its command.
    probe = [sys.executable, "-c", PROBE, "60", "0"]
    script = subprocess.Popen(
        [sys.executable, str(SCRIPT), nobody_listens(), "--", *probe],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As a terminal leaves it: a shell's background job would ignore Ctrl-C.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert script.stdout is not None
    folder, pid, _, given = script.stdout.readline().split()
    os.killpg(script.pid, signal.SIGINT)
    status = script.wait(timeout=60)

    assert status == pg.INTERRUPTED
    assert gone(folder, int(pid), port_of(given))


@pytest.fixture
def running_server(programs: pg.Programs) -> Iterator[str]:
    with pg.throwaway(programs, pg.Target("postgres", "postgres")) as url:
        yield url


def test_it_runs_the_command_on_the_server_that_answers(
    running_server: str, tmp_path: Path
) -> None:
    seen = tmp_path / "url"
    write_url = f"import os; open({str(seen)!r}, 'w').write(os.environ['DATABASE_URL'])"
    command = [sys.executable, "-c", write_url]

    assert pg.main([running_server, "--", *command]) == 0
    assert seen.read_text() == running_server
