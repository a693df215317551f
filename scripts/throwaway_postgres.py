"""Run a command against PostgreSQL: the server at a URL, or a throwaway one.

    python scripts/throwaway_postgres.py URL -- COMMAND [ARG...]

The command runs with DATABASE_URL set. When a server answers at URL (its ``postgres``
maintenance database, through which pytest-django creates and drops test databases),
DATABASE_URL is URL. Otherwise a throwaway server is made from the installed PostgreSQL
server programs (initdb, postgres) in a temporary directory, listens on a free port of
127.0.0.1 with trust authentication, holds URL's database, and is stopped and removed
when the command ends, also when it fails or is interrupted. Without those programs it
stops at once, before running anything, and names the package to install.

``make pytest-postgres`` runs the PostgreSQL pass through it, so ``make test`` works on
a machine where no server runs (a newcomer's laptop, a fresh CI machine).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

# Where packages put the server programs when they are not on PATH (newest version wins):
# Debian and Ubuntu, PostgreSQL's own RPMs, Homebrew's versioned formulae.
SEARCH = (
    "/usr/lib/postgresql/*/bin",
    "/usr/pgsql-*/bin",
    "/opt/homebrew/opt/postgresql*/bin",
    "/usr/local/opt/postgresql*/bin",
)
INSTALL_HINT = (
    "install the PostgreSQL server: Debian/Ubuntu `apt-get install postgresql`, "
    "macOS `brew install postgresql`"
)
# The same collation as the machine's and CI's server, so both passes sort alike;
# None (the environment's locale) where the system has no C.UTF-8 (macOS).
LOCALES = ("C.UTF-8", None)
# Nothing here outlives the run, so durability is traded for speed.
SPEED = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
READY_SECONDS = 60.0
STOP_SECONDS = 30.0
USAGE = "python scripts/throwaway_postgres.py URL -- COMMAND [ARG...]"
INTERRUPTED = 130  # the shell's status for a command ended by Ctrl-C


class Unavailable(Exception):
    """No server answers and none can be started; the message says what to do."""


@dataclass(frozen=True)
class Programs:
    """A directory holding initdb and postgres, and who must run them."""

    directory: Path
    user: pwd.struct_passwd | None  # None: the current user

    def command(self, name: str, *args: str) -> list[str]:
        return [str(self.directory / name), *args]

    def spawn(self, command: list[str], **options: object) -> subprocess.Popen[bytes]:
        if self.user is not None:
            options.update(user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[])
        return subprocess.Popen(command, **options)  # type: ignore[call-overload, no-any-return]


# -- is a server there? ---------------------------------------------------------------------


def why_unusable(url: str) -> str | None:
    """None when URL's server lets us into its maintenance database, else the reason."""
    try:
        with psycopg.connect(url, dbname="postgres", connect_timeout=5):
            return None
    except psycopg.Error as error:
        lines = str(error).strip().splitlines()  # the first says what failed, and where
        return lines[0] if lines else type(error).__name__


# -- the server programs --------------------------------------------------------------------


def find_programs(path: str, search: Sequence[str] = SEARCH) -> Path:
    """The directory of initdb and postgres: on ``path`` first, then the newest in ``search``."""
    on_path = shutil.which("initdb", path=path)
    candidates = [Path(on_path).resolve().parent] if on_path else []
    for pattern in search:
        candidates += sorted(Path("/").glob(pattern.lstrip("/")), key=_version, reverse=True)
    for directory in candidates:
        if all(os.access(directory / name, os.X_OK) for name in ("initdb", "postgres")):
            return directory
    places = ", ".join(["PATH", *search])
    missing = f"no PostgreSQL server programs (initdb, postgres) in {places}"
    raise Unavailable(f"{missing}; {INSTALL_HINT}")


def _version(directory: Path) -> tuple[int, ...]:
    return tuple(int(number) for number in re.findall(r"\d+", str(directory)))


def server_user() -> pwd.struct_passwd | None:
    """PostgreSQL refuses to run as root: as root, run it as the ``postgres`` user."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable(
            "as root the throwaway server must run as the user 'postgres', and there is none; "
            "create it, or run as an ordinary user"
        ) from None


# -- the throwaway server -------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """What the command expects of the server: a superuser and a database."""

    user: str
    database: str

    @classmethod
    def of(cls, url: str) -> Target:
        parts = urlsplit(url)
        return cls(parts.username or "postgres", parts.path.lstrip("/") or "postgres")

    def url(self, port: int) -> str:
        return f"postgres://{self.user}@127.0.0.1:{port}/{self.database}"


@contextmanager
def throwaway(programs: Programs, target: Target) -> Iterator[str]:
    """A new server holding ``target``; its URL. Stopped and deleted on the way out."""
    home = Path(tempfile.mkdtemp(prefix="ecfgrading-postgres-"))
    server: subprocess.Popen[bytes] | None = None
    try:
        if programs.user is not None:
            os.chown(home, programs.user.pw_uid, programs.user.pw_gid)
        _initdb(programs, home, target.user)
        port = free_port()
        server = _start(programs, home, port)
        _wait_ready(server, home, target, port)
        _create_database(target, port)
        yield target.url(port)
    finally:
        if server is not None:
            stop(server)
        shutil.rmtree(home, ignore_errors=True)


def _initdb(programs: Programs, home: Path, user: str) -> None:
    failures = []
    for locale in LOCALES:
        args = ["-D", str(home / "data"), "-U", user, "--auth=trust", "--encoding=UTF8"]
        args += ["--no-sync", *([f"--locale={locale}"] if locale else [])]
        made = programs.spawn(
            programs.command("initdb", *args),
            cwd=home,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        output, _ = made.communicate()
        if made.returncode == 0:
            return
        failures.append(output.decode(errors="replace").strip())
    raise Unavailable("initdb failed:\n" + "\n".join(failures))


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now (the server takes it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(programs: Programs, home: Path, port: int) -> subprocess.Popen[bytes]:
    args = ["-D", str(home / "data"), "-p", str(port), "-h", "127.0.0.1", "-k", str(home)]
    args += [item for setting in SPEED for item in ("-c", setting)]
    with (home / "server.log").open("wb") as log:
        # A session of its own: Ctrl-C reaches the command, and the server is stopped
        # only after the command has finished with it.
        return programs.spawn(
            programs.command("postgres", *args),
            cwd=home,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait_ready(server: subprocess.Popen[bytes], home: Path, target: Target, port: int) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline and server.poll() is None:
        with suppress(psycopg.OperationalError), _admin(target, port):
            return
        time.sleep(0.1)
    log = (home / "server.log").read_text(errors="replace").strip()
    raise Unavailable(f"the throwaway server did not start:\n{log}")


def _admin(target: Target, port: int) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(
        host="127.0.0.1",
        port=port,
        user=target.user,
        dbname="postgres",
        autocommit=True,
        connect_timeout=2,
    )


def _create_database(target: Target, port: int) -> None:
    if target.database != "postgres":
        with _admin(target, port) as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(target.database)))


def stop(server: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL."""
    for how in (signal.SIGINT, signal.SIGQUIT, signal.SIGKILL):
        if server.poll() is not None:
            return
        server.send_signal(how)
        with suppress(subprocess.TimeoutExpired):
            server.wait(STOP_SECONDS)


# -- the command ----------------------------------------------------------------------------


def run(command: Sequence[str], database_url: str) -> int:
    """Run ``command`` with DATABASE_URL; its exit status, 128 + N if signal N ended it.

    Ctrl-C reaches the command too (it shares our process group): wait while it tidies up,
    and kill it at a second Ctrl-C. SIGTERM sent to us alone is passed on to it.
    """
    child = subprocess.Popen(command, env={**os.environ, "DATABASE_URL": database_url})

    def pass_on(signum: int, frame: FrameType | None) -> None:
        child.send_signal(signum)

    previous = signal.signal(signal.SIGTERM, pass_on)
    interrupted = False
    try:
        while True:
            try:
                status = child.wait()
                return 128 - status if status < 0 else status
            except KeyboardInterrupt:
                if interrupted:
                    child.kill()
                interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def sigterm_unwinds() -> Iterator[None]:
    """SIGTERM raises SystemExit, so a half-started server is stopped and removed too."""

    def unwind(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None, *, search: Sequence[str] = SEARCH) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or args[1] != "--":
        print(f"usage: {USAGE}", file=sys.stderr)
        return 2
    url, command = args[0], args[2:]
    reason = why_unusable(url)
    if reason is None:
        return run(command, url)
    say(f"no usable PostgreSQL at {url} ({reason})")
    try:
        with sigterm_unwinds():
            return run_on_throwaway(command, Target.of(url), search)
    except Unavailable as error:
        say(f"cannot run the PostgreSQL pass: {error}")
        return 1
    except KeyboardInterrupt:
        say("interrupted; throwaway PostgreSQL stopped and removed")
        return INTERRUPTED


def run_on_throwaway(command: Sequence[str], target: Target, search: Sequence[str]) -> int:
    programs = Programs(find_programs(os.environ.get("PATH", ""), search), server_user())
    with throwaway(programs, target) as url:
        say(f"throwaway PostgreSQL from {programs.directory} at {url}")
        status = run(command, url)
    say("throwaway PostgreSQL stopped and removed")
    return status


def say(message: str) -> None:
    print(f"throwaway_postgres: {message}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
