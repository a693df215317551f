"""A parent on a phone opens an earlier season from the grade history and sees that
season's games (issue 23, item 3), and the initial grade an August version replaced
(item 9), in Debian's Chromium at 390 px. Expected values come from the served demo's
database by plain SQL."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from ecfgrading.engine.codes import GradingCode
from tests.web.browser import Browser
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

PHONE = 390

# A player's entries in the current version of each standard list graded from stored
# games, with the games that version stored for his latest period (G17).
EARLIER_SEASON = """
    SELECT p.code, l.list_id, e.grade, COUNT(s.id) AS games
    FROM registry_listentry e
    JOIN registry_listversion v ON v.id = e.version_id
    JOIN registry_gradinglist l ON l.id = v.grading_list_id
    JOIN registry_player p ON p.id = e.player_id
    JOIN registry_storedgamepoints s
      ON s.version_id = v.id AND s.player_id = e.player_id AND s.period = 0
    WHERE l.rate = 'standard' AND v.status = 'published' AND e.published
      AND e.category <> 'X' AND l.list_id < '2013-01'
      AND v.id = (SELECT v2.id FROM registry_listversion v2
                  WHERE v2.grading_list_id = l.id AND v2.status = 'published'
                  ORDER BY v2.published_at DESC, v2.id DESC LIMIT 1)
    GROUP BY p.code, l.list_id, e.grade
    ORDER BY games DESC, p.code LIMIT 1
"""

# (initial, august) grades of one player in a July standard list where they differ.
REVISED = """
    SELECT p.code, l.list_id, i.grade, i.category, a.grade, a.category
    FROM registry_listentry a
    JOIN registry_listversion va ON va.id = a.version_id AND va.name = 'august'
    JOIN registry_gradinglist l ON l.id = va.grading_list_id AND l.rate = 'standard'
    JOIN registry_listversion vi ON vi.grading_list_id = l.id AND vi.name = 'initial'
    JOIN registry_listentry i ON i.version_id = vi.id AND i.player_id = a.player_id
    JOIN registry_player p ON p.id = a.player_id
    WHERE a.published AND i.published AND a.grade <> i.grade
    ORDER BY l.list_id, p.code LIMIT 1
"""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    opened = browser.page(PHONE)
    yield opened
    opened.context.close()


def label(list_id: str) -> str:
    year, month = list_id.split("-")
    return f"{'January' if month == '01' else 'July'} {year}"


def open_fold(page: Page, name: str) -> None:
    """Open a folded section (<details>) by its summary, where the page folds it."""
    fold = page.locator(f"details:has(#{name})")
    if fold.count() and not fold.first.evaluate("d => d.open"):
        fold.first.locator("summary").first.click()


def test_a_history_row_opens_that_seasons_games_on_a_phone(
    site: Site, phone: Page, screenshots: object
) -> None:
    with site.database() as db:
        number, list_id, grade, games = db.execute(EARLIER_SEASON).fetchone()
    code = str(GradingCode(number))
    phone.goto(f"{site.url}/players/{code}/")
    open_fold(phone, "history")
    row = phone.locator(".history-table").get_by_role("link", name=label(list_id), exact=True)
    row.click()
    expect(phone).to_have_url(re.compile(rf"/players/{code}/\?list={list_id}$"))
    expect(phone.locator("#card-standard").locator("xpath=..")).to_contain_text(str(grade))
    open_fold(phone, "games")
    table = phone.locator("section:has(#games-standard) table.games-table").first
    expect(table).to_be_visible()
    expect(table.locator("caption")).to_contain_text(f"{games} games")
    expect(table.locator("tbody tr")).to_have_count(games)
    phone.screenshot(path=f"{screenshots}/player-earlier-season-phone.png", full_page=True)


def test_the_initial_grade_august_replaced_is_shown_and_opens_its_version(
    site: Site, phone: Page
) -> None:
    with site.database() as db:
        number, list_id, before, before_cat, after, after_cat = db.execute(REVISED).fetchone()
    code = str(GradingCode(number))
    phone.goto(f"{site.url}/players/{code}/")
    open_fold(phone, "history")
    row = phone.locator(".history-table tr", has=phone.get_by_role("link", name=label(list_id)))
    cell = row.locator("td").first
    expect(cell).to_contain_text(f"{after}{after_cat}")
    expect(cell).to_contain_text(f"initial {before}{before_cat}")
    cell.get_by_role("link", name=re.compile(rf"^{before}")).click()
    expect(phone).to_have_url(re.compile(rf"\?list={list_id}&version=initial$"))
    expect(phone.locator("#card-standard").locator("xpath=..")).to_contain_text(str(before))
