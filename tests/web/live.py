"""A real server on the tiny demo federation, for the browser tests.

The demo is built by the CLI into its own SQLite home and served by ``ecfgrading serve``
(gunicorn, whitenoise) on a free loopback port, then stopped. These tests run in the
SQLite pass (they use a SQLite file of their own, whatever DATABASE_URL says).
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BIN = Path(sys.executable).parent
SEED = 3


@dataclass(frozen=True)
class Site:
    url: str
    home: Path

    def database(self) -> sqlite3.Connection:
        """The demo's database, read-only, for expectations the tests work out themselves."""
        path = self.home / "ecfgrading.sqlite3"
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)

    def get(self, path: str, accept: str = "text/html") -> tuple[int, str]:
        request = urllib.request.Request(self.url + path, headers={"Accept": accept})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env.pop("REDIS_URL", None)  # the database cache: one machine, one SQLite file
    env["ECFGRADING_HOME"] = str(home)
    env["ECFGRADING_DEBUG"] = "0"
    return env


def build(home: Path) -> None:
    command = [str(BIN / "ecfgrading"), "demo", "--size", "tiny", "--seed", str(SEED)]
    subprocess.run(command, env=environment(home), check=True, capture_output=True)


@contextmanager
def serving(home: Path, *, env: dict[str, str] | None = None, workers: int = 2) -> Iterator[Site]:
    """``ecfgrading serve`` on the built home until the block ends (``env``: the whole
    environment, when the test adds to ``environment(home)``)."""
    port = free_port()
    command = [str(BIN / "ecfgrading"), "serve", "--port", str(port), "--workers", str(workers)]
    env = environment(home) if env is None else env
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    site = Site(f"http://127.0.0.1:{port}", home)
    try:
        _wait_for(site, server)
        yield site
    finally:
        server.terminate()
        server.wait(timeout=30)


def _wait_for(site: Site, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped with status {server.returncode}")
        try:
            site.get("/")
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not answer within 60 s")
