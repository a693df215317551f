"""Screenshots of the main pages for docs/guide.md, from the tiny demo served locally.

    .venv/bin/python -m scripts.guide_screenshots [docs/images]

Builds the tiny demo in a temporary home, serves it with ``ecfgrading serve`` on a free
loopback port, and saves the first screen of each page at desktop and phone widths with
Debian's Chromium (/usr/bin/chromium) through Playwright: the main pages, and the
player page of a busy graded player, a junior, a newcomer, an inactive player and a
merged record (issue 23; a case the demo has no player for is left out).
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
    cases = {f"player-{case}": f"/players/{GradingCode(c)}/" for case, c in _cases(database)}
    return {
        "home": "/",
        "lookup": f"/players/?q={surname[:3].lower()}",
        "player": f"/players/{GradingCode(code)}/",
        **cases,
        "club": f"/clubs/{club}/?sort=standard",
        "events": "/events/",
        "lists": "/lists/",
        "help": "/help/",
        "feedback": "/feedback/",
    }


# The player page's cases (issue 23), each the first of the demo's by a stated rule.
_LATEST = (
    "SELECT v.id FROM registry_listversion v JOIN registry_gradinglist g"
    " ON g.id = v.grading_list_id WHERE v.status = 'published' AND g.rate = '{rate}'"
    " ORDER BY g.list_id DESC, v.published_at DESC LIMIT 1"
)
_CURRENT = _LATEST.format(rate="standard")
_BOTH = f"({_CURRENT}), ({_LATEST.format(rate='rapid')})"
_CASES = {
    # the junior with the most games in the current standard list
    "junior": "SELECT p.code FROM registry_listentry e JOIN registry_player p"
    f" ON p.id = e.player_id WHERE e.version_id = ({_CURRENT}) AND e.published"
    " AND e.junior_age IS NOT NULL ORDER BY e.games_counted DESC, p.code LIMIT 1",
    # the newcomer with the most graded games and no published grade
    "newcomer": "SELECT p.code FROM registry_player p JOIN registry_game g"
    " ON p.id IN (g.player1_id, g.player2_id) WHERE g.graded AND p.merged_into_id IS NULL"
    " AND NOT EXISTS (SELECT 1 FROM registry_listentry e WHERE e.player_id = p.id"
    " AND e.published) GROUP BY p.id ORDER BY COUNT(*) DESC, p.code LIMIT 1",
    # a player graded before but in neither current list: the latest to have lapsed
    "inactive": "SELECT p.code FROM registry_listentry e JOIN registry_player p"
    " ON p.id = e.player_id JOIN registry_listversion v ON v.id = e.version_id"
    " JOIN registry_gradinglist g ON g.id = v.grading_list_id WHERE e.published"
    " AND p.merged_into_id IS NULL AND NOT EXISTS (SELECT 1 FROM registry_listentry n"
    f" WHERE n.player_id = p.id AND n.version_id IN ({_BOTH}))"
    " ORDER BY g.list_id DESC, p.code LIMIT 1",
    # a record merged into another (the page leads to the one it counts for, G28)
    "merged": "SELECT code FROM registry_player WHERE merged_into_id IS NOT NULL"
    " ORDER BY code LIMIT 1",
}


def _cases(database: Path) -> list[tuple[str, int]]:
    """Each case's player code; a case the demo has no player for is left out."""
    found = []
    with sqlite3.connect(database) as db:
        for case, query in _CASES.items():
            row = db.execute(query).fetchone()
            if row is not None:
                found.append((case, int(row[0])))
    return found


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
