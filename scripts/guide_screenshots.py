"""Screenshots of the main pages for docs/guide.md, from the tiny demo served locally.

    .venv/bin/python -m scripts.guide_screenshots [docs/images]

Builds the tiny demo in a temporary home, serves it with ``ecfgrading serve`` on a free
loopback port, and saves the first screen of each page at desktop and phone widths with
Debian's Chromium (/usr/bin/chromium) through Playwright.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from scripts.served_demo import ARGS, CHROMIUM, demo_home, serving

WIDTHS = {"desktop": (1280, 860), "phone": (390, 844)}


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with demo_home() as (home, env), serving(env) as url:
        _shoot(url, _pages(home / "ecfgrading.sqlite3"), folder)


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
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for width_name, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, path in pages.items():
                page.goto(url + path)
                page.screenshot(path=str(folder / f"{name}-{width_name}.png"))
            page.close()
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
