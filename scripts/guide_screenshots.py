"""Screenshots of the main pages for docs/guide.md, from the tiny demo served locally.

    .venv/bin/python scripts/guide_screenshots.py [docs/images]

Builds the tiny demo in a temporary home, serves it with ``ecfgrading serve`` on a free
loopback port, and saves the first screen of each page at desktop and phone widths with
Debian's Chromium (/usr/bin/chromium) through Playwright.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

BIN = Path(sys.executable).parent
WIDTHS = {"desktop": (1280, 860), "phone": (390, 844)}
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "ECFGRADING_HOME": home}
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        subprocess.run(
            [str(BIN / "ecfgrading"), "demo", "--size", "tiny"],
            env=env,
            check=True,
            capture_output=True,
        )
        pages = _pages(Path(home) / "ecfgrading.sqlite3")
        port = _free_port()
        server = subprocess.Popen(
            [str(BIN / "ecfgrading"), "serve", "--port", str(port), "--workers", "2"],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        try:
            _wait(f"http://127.0.0.1:{port}/")
            _shoot(f"http://127.0.0.1:{port}", pages, folder)
        finally:
            server.terminate()
            server.wait(timeout=30)


def _pages(database: Path) -> dict[str, str]:
    """The pages to show, with a busy player and club of the demo."""
    from ecfgrading.engine.codes import GradingCode

    with sqlite3.connect(database) as db:
        code, surname = db.execute(
            "SELECT p.code, p.surname FROM registry_listentry e JOIN registry_player p"
            " ON p.id = e.player_id WHERE e.published AND e.grade > 0"
            " ORDER BY e.version_id DESC, e.games_counted DESC LIMIT 1"
        ).fetchone()
        (club,) = db.execute(
            "SELECT c.code FROM registry_club c JOIN registry_clubmembership m"
            " ON m.club_id = c.id WHERE c.code IS NOT NULL GROUP BY c.id"
            " ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()
    return {
        "home": "/",
        "lookup": f"/players/?q={surname[:3].lower()}",
        "player": f"/players/{GradingCode(code)}/",
        "club": f"/clubs/{club}/?sort=standard",
        "events": "/events/",
        "lists": "/lists/",
        "help": "/help/",
        "feedback": "/feedback/",
    }


def _shoot(url: str, pages: dict[str, str], folder: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for width_name, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, path in pages.items():
                page.goto(url + path)
                page.screenshot(path=str(folder / f"{name}-{width_name}.png"))
            page.close()
        browser.close()


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


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
