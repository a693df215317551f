"""What the screenshot scripts share: the tiny demo built in a home of its own, served by
``ecfgrading serve`` on a free loopback port, and Debian's Chromium to look at it. Run
the scripts as modules from the project's root (``python -m scripts.team_screenshots``).

    with demo_home(seed=3) as (home, env):
        ...  # add what the pages need
        with serving(env) as url:
            ...  # Playwright against url
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@contextmanager
def demo_home(seed: int | None = None) -> Iterator[tuple[Path, dict[str, str]]]:
    """The tiny demo on SQLite in a temporary home, and the environment that names it."""
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "ECFGRADING_HOME": home,
            "DJANGO_SETTINGS_MODULE": "ecfgrading.settings",
        }
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        demo = [str(BIN / "ecfgrading"), "demo", "--size", "tiny"]
        if seed is not None:
            demo += ["--seed", str(seed)]
        subprocess.run(demo, env=env, check=True, capture_output=True)
        yield Path(home), env


@contextmanager
def serving(env: dict[str, str]) -> Iterator[str]:
    """The demo served until the block ends; its base URL."""
    port = _free_port()
    server = subprocess.Popen(
        [str(BIN / "ecfgrading"), "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(url + "/")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait(url: str) -> None:
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")
