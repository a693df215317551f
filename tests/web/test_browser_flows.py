"""What a player, a parent or a captain does on the site, in Debian's Chromium at phone
and desktop widths: type into the lookups, follow links, toggle inactive players, sort a
club, open the breakdown, send feedback and follow its status. Screenshots of each step
are left in var/test-output/screenshots.

Expected players and clubs are read from the served demo's database with plain SQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ecfgrading.engine.codes import GradingCode
from tests.web.browser import Browser
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

WIDTHS = {"phone": 390, "desktop": 1280}

# The current standard version: the latest published version of the latest July list.
CURRENT_STANDARD = """
    SELECT v.id FROM registry_listversion v JOIN registry_gradinglist l ON l.id = v.grading_list_id
    WHERE l.rate = 'standard' AND v.status = 'published'
    ORDER BY l.list_id DESC, v.published_at DESC, v.id DESC LIMIT 1
"""


@pytest.fixture(params=WIDTHS.values(), ids=WIDTHS.keys())
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    opened = browser.page(request.param)
    yield opened
    opened.context.close()


def width_name(page: Page) -> str:
    return "phone" if page.viewport_size and page.viewport_size["width"] < 600 else "desktop"


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}-{width_name(page)}.png"), full_page=True)


def graded_player(site: Site) -> tuple[str, str, str]:
    """(code with letter, surname, forenames) of a player with a current standard grade."""
    with site.database() as db:
        code, surname, forenames = db.execute(
            f"""SELECT p.code, p.surname, p.forenames FROM registry_listentry e
                JOIN registry_player p ON p.id = e.player_id
                WHERE e.version_id = ({CURRENT_STANDARD}) AND e.published AND e.grade > 0
                  AND p.forenames <> '' ORDER BY e.games_counted DESC, p.code LIMIT 1"""
        ).fetchone()
    return str(GradingCode(code)), surname, forenames


def test_a_player_is_found_by_typing_his_name_and_his_breakdown_opened(
    site: Site, page: Page, screenshots: Path
) -> None:
    code, surname, forenames = graded_player(site)
    page.goto(site.url + "/")
    page.get_by_label("Player: surname, forename or grading code").first.fill(
        f"{surname.lower()}, {forenames[0]}"
    )
    page.get_by_role("button", name="Find player").first.click()
    expect(page).to_have_url(re.compile(r"/players/\?q="))
    shot(page, screenshots, "lookup")

    page.get_by_role("link", name=f"{surname}, {forenames}", exact=True).first.click()
    expect(page).to_have_url(f"{site.url}/players/{code}/")
    expect(page.locator("h1")).to_contain_text(f"{surname}, {forenames}")
    shot(page, screenshots, "player")

    page.locator("a.big[href='#how-standard']").click()
    expect(page).to_have_url(re.compile("#how-standard$"))
    expect(page.locator("#how-standard")).to_be_in_viewport()
    expect(page.locator("#how")).to_contain_text("points")


def test_a_code_goes_straight_to_the_player(site: Site, page: Page) -> None:
    code, surname, _ = graded_player(site)
    page.goto(site.url + "/")
    box = page.get_by_label("Player: surname, forename or grading code").first
    box.fill(code[:6])  # without its check letter
    box.press("Enter")
    expect(page).to_have_url(f"{site.url}/players/{code}/")
    expect(page.locator("h1")).to_contain_text(surname)


def test_including_inactive_players_finds_one_no_longer_graded(
    site: Site, page: Page, screenshots: Path
) -> None:
    with site.database() as db:
        code, surname = db.execute(
            f"""SELECT p.code, p.surname FROM registry_player p
                WHERE p.merged_into_id IS NULL
                  AND EXISTS (SELECT 1 FROM registry_listentry e WHERE e.player_id = p.id
                              AND e.published)
                  AND NOT EXISTS (SELECT 1 FROM registry_listentry e WHERE e.player_id = p.id
                              AND e.published AND e.version_id IN (
                                SELECT v.id FROM registry_listversion v
                                WHERE v.status = 'published' AND v.grading_list_id IN (
                                  SELECT grading_list_id FROM registry_listversion
                                  WHERE id = ({CURRENT_STANDARD})
                                  UNION SELECT l.id FROM registry_gradinglist l
                                  WHERE l.rate = 'rapid' ORDER BY 1 DESC LIMIT 2)))
                ORDER BY p.code LIMIT 1"""
        ).fetchone()
    ref = str(GradingCode(code))
    page.goto(f"{site.url}/players/?q={surname}")
    expect(page.locator(f"a[href='/players/{ref}/']")).to_have_count(0)

    page.get_by_label("Include inactive players").first.check()
    page.get_by_role("button", name="Find player").first.click()
    expect(page).to_have_url(re.compile("inactive=1"))
    expect(page.locator(f"a[href='/players/{ref}/']").first).to_be_visible()
    shot(page, screenshots, "lookup-inactive")


def test_a_club_is_found_and_its_members_sorted_by_standard_grade(
    site: Site, page: Page, screenshots: Path
) -> None:
    with site.database() as db:
        club_code, club_name = db.execute(
            f"""SELECT c.code, c.name FROM registry_club c
                JOIN registry_clubmembership m ON m.club_id = c.id
                JOIN registry_listentry e ON e.player_id = m.player_id
                WHERE c.code IS NOT NULL AND e.version_id = ({CURRENT_STANDARD}) AND e.published
                GROUP BY c.id ORDER BY COUNT(*) DESC LIMIT 1"""
        ).fetchone()
    page.goto(site.url + "/")
    box = page.get_by_label("Club or county: name or its first letters").first
    box.fill(club_name[:4].lower())
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/clubs/\?q="))
    shot(page, screenshots, "club-lookup")

    page.locator(f"a[href='/clubs/{club_code}/']").first.click()
    expect(page).to_have_url(f"{site.url}/clubs/{club_code}/")
    page.get_by_role("link", name="Standard", exact=True).click()
    expect(page).to_have_url(re.compile("sort=standard"))
    shot(page, screenshots, "club-by-standard")

    grades = standard_column(page)
    assert len(grades) >= 3
    assert grades == sorted(grades, reverse=True)


def standard_column(page: Page) -> list[int]:
    """The leading number of each member's Standard cell, where he has one."""
    headers = [h.strip() for h in page.locator("table thead th").all_inner_texts()]
    column = next(i for i, text in enumerate(headers) if text.startswith("Standard"))
    cells = page.locator(f"table tbody tr > :nth-child({column + 1})").all_inner_texts()
    return [int(m.group()) for text in cells if (m := re.match(r"\d+", text.strip()))]


def test_feedback_is_sent_and_its_status_followed(
    site: Site, page: Page, screenshots: Path
) -> None:
    code, _, _ = graded_player(site)
    page.goto(site.url + "/feedback/")
    page.get_by_label("A wrong result").check()
    page.get_by_label("Grading code of the player").fill(code)
    page.get_by_role("textbox", name="Event").fill("Anytown Congress, round 3")
    page.get_by_label("What is wrong, and what should it be?").fill(
        "Round 3 was a draw, not a loss."
    )
    shot(page, screenshots, "feedback")
    page.get_by_role("button", name="Send report").click()
    expect(page).to_have_url(re.compile(r"/feedback/FB-[A-Z0-9]{8}/(\?sent=1)?$"))
    status_url = page.url.split("?")[0]
    expect(page.locator("main")).to_contain_text("Open")
    shot(page, screenshots, "feedback-status")

    page.goto(status_url)
    expect(page.locator("main")).to_contain_text("Open")
    expect(page.locator("main")).to_contain_text(code)
